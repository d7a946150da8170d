import { billEndpoints as api } from '@ohgood/contract/bills';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys, invalidateAfter } from '../../../shared/query-keys';

/** The bills feature's keys, on the shared registry's prefixes (other features' writes refresh them). */
export const billKeys = {
  all: dataKeys.bills,
  info: dataKeys.billInfo,
  status: dataKeys.billStatus,
  thisMonth: dataKeys.billThisMonth,
};

/** The bare payment info fields (docs/rules/bills-and-grades.md#B4). */
export const paymentInfoQuery = queryOptions({ queryKey: billKeys.info, queryFn: () => callEndpoint(api.info) });

export const billStatusQuery = queryOptions({
  queryKey: billKeys.status,
  queryFn: () => callEndpoint(api.statements).then((body) => body.data),
});

export function usePaymentInfo() {
  return useQuery(paymentInfoQuery);
}

export function useBillStatus() {
  return useQuery(billStatusQuery);
}

export function usePayThisMonth() {
  // Bare; the card reads the domain's names, which sit beside the spec's original ones.
  return useQuery({ queryKey: billKeys.thisMonth, queryFn: () => callEndpoint(api.payThisMonth) });
}

/** After a bill changes, every bill view (page, home card) and what else it changed shows the new state. */
export function useExtension() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.extension).then((body) => body.data),
    onSuccess: () => invalidateAfter(client, 'extension'),
  });
}

export function useRepay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (paymentIds: number[]) => callEndpoint(api.repay, { body: paymentIds }).then((body) => body.data),
    onSuccess: () => invalidateAfter(client, 'repayment'),
  });
}
