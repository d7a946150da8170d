import { opsCollectionsEndpoints as api } from '@ohgood/contract/ops-collections';
import type { WorkListFilter } from '@ohgood/contract/ops-desk';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { opsKeys } from './keys';
import { callOps } from './staff-api';

/* The collections and jobs screens' reads and what their actions change (docs/rules/operations.md#O18–O22). */

export const collectionsKeys = {
  /** Every filtered list. */
  lists: ['ops', 'collections'],
  list: (filter: WorkListFilter) => ['ops', 'collections', filter],
  debits: (id: number) => ['ops', 'customers', id, 'debits'],
  jobs: ['ops', 'jobs'],
} as const;

export const collectionsChanges = {
  /** A retry moves money: the customer's page, debits and timeline, the lists (the desk's too), today's figures. */
  debit: (id: number): QueryKey[] => [
    opsKeys.customer(id),
    collectionsKeys.lists,
    opsKeys.lists,
    opsKeys.home,
    opsKeys.audit,
  ],
  /** A reminder, a new account, a bulk action: the customers, the lists and the audit log. */
  customers: (): QueryKey[] => [opsKeys.customers, collectionsKeys.lists, opsKeys.lists, opsKeys.home, opsKeys.audit],
  /** A re-run: the jobs, and whatever a run changes (figures, lists). */
  job: (): QueryKey[] => [collectionsKeys.jobs, opsKeys.home, collectionsKeys.lists, opsKeys.lists, opsKeys.audit],
};

/** A work list under the work lists' filter (the same query a bulk preview sends). */
export const useCollectionList = (filter: WorkListFilter) =>
  useQuery({
    queryKey: collectionsKeys.list(filter),
    queryFn: ({ signal }) => callOps(api.collectionList, { query: filter, signal }),
  });

export const useDebits = (customerId: number) =>
  useQuery({
    queryKey: collectionsKeys.debits(customerId),
    queryFn: ({ signal }) => callOps(api.debits, { params: { id: customerId }, signal }),
  });

export const useJobs = () =>
  useQuery({ queryKey: collectionsKeys.jobs, queryFn: ({ signal }) => callOps(api.jobs, { signal }) });
