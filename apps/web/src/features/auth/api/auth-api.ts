import { authEndpoints as api, type LoginRequest, type RegisterRequest } from '@ohgood/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';

/** Bare `{accessToken}`. Nothing cached to refresh: the session starts with an empty cache. */
export function useLogin() {
  return useMutation({ mutationFn: (body: LoginRequest) => callEndpoint(api.login, { body }) });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterRequest) => callEndpoint(api.register, { body }).then((res) => res.data),
  });
}
