import { opsEndpoints as api } from '@ohgood/contract/ops';
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AuditFilter, opsKeys } from './keys';
import { callOps } from './staff-api';

/* The console's reads (TanStack Query on its own cache and keys) and its one way to act. */

export type Queue = 'OPEN' | 'HIDDEN' | 'CLOSED';

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

export const useMerchant = (id: number) =>
  useQuery({
    queryKey: opsKeys.merchant(id),
    queryFn: ({ signal }) => callOps(api.merchant, { params: { id }, signal }),
  });

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
