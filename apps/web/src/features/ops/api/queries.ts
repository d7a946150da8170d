import { merchantUserOpsEndpoints } from '@ohgood/contract/merchant-portal';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import {
  type CustomerFilter,
  opsDeskEndpoints as desk,
  type FAILED_DEBIT_SORTS,
  type OVERDUE_SORTS,
  type PENDING_SORTS,
} from '@ohgood/contract/ops-desk';
import { opsSettlementEndpoints } from '@ohgood/contract/settlements';
import { opsWebhookEndpoints } from '@ohgood/contract/webhooks';
import {
  type QueryKey,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type AuditFilter, opsKeys } from './keys';
import { callOps } from './staff-api';

/* The console's reads (TanStack Query on its own cache and keys) and its one way to act. */

export type Queue = 'OPEN' | 'HIDDEN' | 'CLOSED';
export type OverdueSort = (typeof OVERDUE_SORTS)[number];
export type FailedDebitSort = (typeof FAILED_DEBIT_SORTS)[number];
export type PendingSort = (typeof PENDING_SORTS)[number];

export const useOpsHome = () =>
  useQuery({ queryKey: opsKeys.home, queryFn: ({ signal }) => callOps(api.home, { signal }) });

/** A search runs once one is submitted (`q` not empty). */
export const useCustomerSearch = (q: string) =>
  useQuery({
    queryKey: opsKeys.search(q),
    queryFn: ({ signal }) => callOps(api.searchCustomers, { query: { q }, signal }),
    enabled: q !== '',
  });

export const useCustomerPage = (id: number) =>
  useQuery({
    queryKey: opsKeys.customerPage(id),
    queryFn: ({ signal }) => callOps(api.customer, { params: { id }, signal }),
  });

export const useCustomerAudit = (id: number) =>
  useQuery({
    queryKey: opsKeys.customerAudit(id),
    queryFn: ({ signal }) => callOps(api.customerAudit, { params: { id }, signal }),
  });

export const useModerationQueue = (state: Queue) =>
  useQuery({
    queryKey: opsKeys.queue(state),
    queryFn: ({ signal }) => callOps(api.moderation, { query: { state }, signal }),
  });

export const useMerchants = () =>
  useQuery({ queryKey: opsKeys.merchantList, queryFn: ({ signal }) => callOps(api.merchants, { signal }) });

/**
 * A merchant's reads on the console's detail, one per section. The detail reads those the operator's role may
 * read as it opens and shows its sections once each has answered (pages/merchants.tsx); a section mounting
 * then does not read again (`refetchOnMount: false`). An action's refetch still updates them in place.
 */
export const merchantReads = {
  activity: (id: number) =>
    queryOptions({
      queryKey: opsKeys.merchant(id),
      queryFn: ({ signal }) => callOps(api.merchant, { params: { id }, signal }),
      refetchOnMount: false,
    }),
  users: (id: number) =>
    queryOptions({
      queryKey: [...opsKeys.merchant(id), 'users'],
      queryFn: ({ signal }) => callOps(merchantUserOpsEndpoints.merchantUsers, { params: { id }, signal }),
      refetchOnMount: false,
    }),
  settlement: (id: number) =>
    queryOptions({
      queryKey: [...opsKeys.merchant(id), 'settlement'],
      queryFn: ({ signal }) => callOps(opsSettlementEndpoints.merchantSettlement, { params: { id }, signal }),
      refetchOnMount: false,
    }),
  webhooks: (id: number) =>
    queryOptions({
      queryKey: [...opsKeys.merchant(id), 'webhooks'],
      queryFn: ({ signal }) => callOps(opsWebhookEndpoints.merchantWebhookHealth, { params: { id }, signal }),
      refetchOnMount: false,
    }),
};

export const useReconciliations = () =>
  useQuery({
    queryKey: opsKeys.reconciliations,
    queryFn: ({ signal }) => callOps(api.reconciliations, { signal }),
  });

export const useReconciliationDay = (day: string) =>
  useQuery({
    queryKey: opsKeys.reconciliationDay(day),
    queryFn: ({ signal }) => callOps(api.reconciliation, { params: { day }, signal }),
  });

export const useStaffList = () =>
  useQuery({ queryKey: opsKeys.staff, queryFn: ({ signal }) => callOps(api.staff, { signal }) });

export const useAuditLog = (filter: AuditFilter) =>
  useQuery({
    queryKey: opsKeys.auditLog(filter),
    queryFn: ({ signal }) => callOps(api.audit, { query: { ...filter }, signal }),
  });

export const useEnrolment = (token: string) =>
  useQuery({
    queryKey: opsKeys.enrolment(token),
    queryFn: ({ signal }) => callOps(api.enrolment, { params: { token }, signal }),
  });

/**
 * A console action: `run` calls the server; once it succeeded, what it changed (`changed`, from `opsChanges`)
 * is marked stale and the reads on screen fetch again. Resolves with the call's answer without waiting for
 * them, so the action's dialog closes at once.
 */
export function useConsoleAction<V, R>(run: (vars: V) => Promise<R>, changed: (vars: V) => readonly QueryKey[]) {
  const client = useQueryClient();
  const { mutateAsync } = useMutation({
    mutationFn: run,
    onSuccess: (_answer, vars) => {
      for (const queryKey of changed(vars)) void client.invalidateQueries({ queryKey });
    },
  });
  return mutateAsync;
}

/**
 * Pages read by cursor (the work lists, a timeline): each page asks for the rows after the previous page's
 * cursor; `fetchNextPage` loads the next one below.
 */
function useCursorPages<T extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<T>,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export type ListOrder<S extends string> = { sort: S; dir: 'asc' | 'desc' };

export const useOverdueList = (filter: CustomerFilter, order: ListOrder<OverdueSort>) =>
  useCursorPages(opsKeys.workList('overdue', { ...filter, ...order }), (cursor, signal) =>
    callOps(desk.overdueList, { query: { ...filter, ...order, cursor }, signal }),
  );

export const useFailedDebitsList = (filter: CustomerFilter, order: ListOrder<FailedDebitSort>) =>
  useCursorPages(opsKeys.workList('failed-debits', { ...filter, ...order }), (cursor, signal) =>
    callOps(desk.failedDebitsList, { query: { ...filter, ...order, cursor }, signal }),
  );

export const usePendingList = (filter: CustomerFilter, order: ListOrder<PendingSort>) =>
  useCursorPages(opsKeys.workList('autopay-pending', { ...filter, ...order }), (cursor, signal) =>
    callOps(desk.pendingVerificationList, { query: { ...filter, ...order, cursor }, signal }),
  );

export const useTimeline = (id: number) =>
  useCursorPages(opsKeys.timeline(id), (cursor, signal) =>
    callOps(desk.timeline, { params: { id }, query: { cursor }, signal }),
  );
