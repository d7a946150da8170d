import { authEndpoints as api, type LoginRequest, type RegisterRequest } from '@ohgood/contract/auth';
import { callEndpoint } from '../../../shared/api-client';

/** Bare `{accessToken}`. */
export const login = (body: LoginRequest) => callEndpoint(api.login, { body });
export const register = (body: RegisterRequest) => callEndpoint(api.register, { body }).then((res) => res.data);
