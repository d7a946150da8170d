import { paymentEndpoints } from '@ohgood/contract/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

/** The mypage feature's keys: one summary (payments, repayments and points refresh it). */
export const mypageKeys = { summary: [...dataKeys.mypage, 'summary'] as const };

export const mypageQuery = queryOptions({
  queryKey: mypageKeys.summary,
  queryFn: () => callEndpoint(paymentEndpoints.mypage),
});

export function useMypage() {
  return useQuery(mypageQuery);
}
