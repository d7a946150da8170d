import type { RouletteResult } from '@ohgood/contract/checkin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api-client';

export const checkinKeys = { today: ['checkin', 'today'] as const };

export function useCheckedInToday(enabled = true) {
  return useQuery({
    queryKey: checkinKeys.today,
    queryFn: () => api.get<boolean>('/api/checkin/today'),
    staleTime: 0,
    enabled,
  });
}

/** The server draws the prize; the `point` parameter exists only for compatibility (domain §7.1). */
export function useSpin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<RouletteResult>('/api/checkin/roulette'),
    onSettled: () => client.invalidateQueries({ queryKey: checkinKeys.today }),
  });
}
