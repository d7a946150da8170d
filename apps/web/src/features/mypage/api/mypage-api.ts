import { paymentEndpoints } from '@ohgood/contract/payments';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

/** The mypage feature's keys: one summary (payments, repayments and points refresh it). */
export const mypageKeys = { summary: [...dataKeys.mypage, 'summary'] as const };

export function useMypage() {
  return useQuery({ queryKey: mypageKeys.summary, queryFn: () => callEndpoint(paymentEndpoints.mypage) });
}
