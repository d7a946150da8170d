import type { BillStatus, PaymentInfo, PayThisMonth, RepayResult } from '@ohgood/contract/bills';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api-client';

export const billKeys = {
  all: ['bills'] as const,
  info: ['bills', 'info'] as const,
  status: ['bills', 'status'] as const,
  thisMonth: ['bills', 'this-month'] as const,
};

export const fetchPaymentInfo = () => api.get<PaymentInfo>('/api/payment/info');
export const fetchBillStatus = () => api.get<BillStatus>('/api/payment/statements');
export const fetchPayThisMonth = () => api.get<PayThisMonth>('/api/dash/me/pay-this-month');

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
    mutationFn: () => api.post<{ month: string; dueDate: string }>('/api/payment/extension'),
    onSuccess: refresh,
  });
}

export function useRepay() {
  const refresh = useRefreshBills();
  return useMutation({
    mutationFn: (paymentIds: number[]) => api.post<RepayResult>('/api/payment/immediately', paymentIds),
    onSuccess: refresh,
  });
}
