import { autopayEndpoints as api } from '@ohgood/contract/autopay';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

export function useAutopay() {
  return useQuery({ queryKey: dataKeys.autopay, queryFn: () => callEndpoint(api.get).then((body) => body.data) });
}

export function useSetAutopay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (autopay: boolean) => callEndpoint(api.set, { body: { autopay } }),
    onSuccess: (body) => client.setQueryData(dataKeys.autopay, body.data),
  });
}
