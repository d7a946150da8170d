import { billEndpoints as api } from '@ohgood/contract/bills';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';

export const billKeys = {
  all: ['bills'] as const,
  info: ['bills', 'info'] as const,
  status: ['bills', 'status'] as const,
  thisMonth: ['bills', 'this-month'] as const,
};

/** The bare payment info fields (docs/rules/bills-and-grades.md#B4). */
export const fetchPaymentInfo = () => callEndpoint(api.info);
export const fetchBillStatus = () => callEndpoint(api.statements).then((body) => body.data);
/** Bare; the card reads the domain's names, which sit beside the spec's original ones. */
export const fetchPayThisMonth = () => callEndpoint(api.payThisMonth);

export function usePaymentInfo() {
  return useQuery({ queryKey: billKeys.info, queryFn: fetchPaymentInfo });
}

export function useBillStatus() {
  return useQuery({ queryKey: billKeys.status, queryFn: fetchBillStatus });
}

export function usePayThisMonth() {
  return useQuery({ queryKey: billKeys.thisMonth, queryFn: fetchPayThisMonth });
}

/** After a bill changes, every bill view (page, home card) shows the new state. */
function useRefreshBills() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: billKeys.all });
}

export function useExtension() {
  const refresh = useRefreshBills();
  return useMutation({
    mutationFn: () => callEndpoint(api.extension).then((body) => body.data),
    onSuccess: refresh,
  });
}

export function useRepay() {
  const refresh = useRefreshBills();
  return useMutation({
    mutationFn: (paymentIds: number[]) => callEndpoint(api.repay, { body: paymentIds }).then((body) => body.data),
    onSuccess: refresh,
  });
}
