import { checkinEndpoints as api } from '@ohgood/contract/checkin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

/** The check-in feature's key; the app refreshes it with the points once the prize is shown. */
export const checkinKeys = { today: dataKeys.checkinToday };

export function useCheckedInToday(enabled = true) {
  return useQuery({
    queryKey: checkinKeys.today,
    queryFn: () => callEndpoint(api.today),
    staleTime: 0,
    enabled,
  });
}

/** The server draws the prize; the `point` parameter exists only for compatibility (docs/rules/points.md#R4). */
export function useSpin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.roulette).then((body) => body.data),
    onSettled: () => client.invalidateQueries({ queryKey: checkinKeys.today }),
  });
}
