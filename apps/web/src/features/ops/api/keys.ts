import type { QueryKey } from '@tanstack/react-query';

/** An audit log filter as the console sends it (an absent key is no filter). */
export interface AuditFilter {
  staffId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/*
 * The console's query keys: its own cache (api/query-client.ts), apart from the customer app's registry
 * (shared/query-keys.ts). Each screen's reads sit under one prefix, so an action marks a whole screen stale.
 */
export const opsKeys = {
  all: ['ops'],
  home: ['ops', 'home'],
  /** Searches and every customer's page and audit history. */
  customers: ['ops', 'customers'],
  searches: ['ops', 'customers', 'search'],
  search: (q: string) => ['ops', 'customers', 'search', q],
  /** One customer: their page and their audit history. */
  customer: (id: number) => ['ops', 'customers', id],
  customerPage: (id: number) => ['ops', 'customers', id, 'page'],
  customerAudit: (id: number) => ['ops', 'customers', id, 'audit'],
  /** The customer's timeline, every page loaded so far. */
  timeline: (id: number) => ['ops', 'customers', id, 'timeline'],
  /** The work lists behind the home's counts, each list and filter its own entry. */
  lists: ['ops', 'lists'],
  workList: (list: string, query: object) => ['ops', 'lists', list, query],
  moderation: ['ops', 'moderation'],
  queue: (state: string) => ['ops', 'moderation', state],
  /** The list and each merchant's detail. */
  merchants: ['ops', 'merchants'],
  merchantList: ['ops', 'merchants', 'list'],
  merchant: (id: number) => ['ops', 'merchants', id],
  staff: ['ops', 'staff'],
  /** The global audit log, each filter its own entry. */
  audit: ['ops', 'audit'],
  auditLog: (filter: AuditFilter) => ['ops', 'audit', filter],
  enrolment: (token: string) => ['ops', 'enrolment', token],
  /** The daily reconciliation: the recent days and each day's mismatches (read-only; the job writes them). */
  reconciliations: ['ops', 'reconciliations'],
  reconciliationDay: (day: string) => ['ops', 'reconciliations', day],
  /** The month-end report of one statement month as of one day (read-only; nothing in the console changes it). */
  monthEnd: (month: string, asOf: string) => ['ops', 'month-end', month, asOf],
} as const;

/*
 * What each kind of console action changes, as the reads to fetch again. Every action is audited, so each also
 * names the audit log. Kept exact: an action refetches what it changed and nothing else.
 */
export const opsChanges = {
  /** Suspend, lift, a limit, lockouts, sessions: the customer's page and history, their row in a search or a list. */
  customer: (id: number): QueryKey[] => [opsKeys.customer(id), opsKeys.searches, opsKeys.lists, opsKeys.audit],
  /** A reveal changes no data, only the customer's audit history. */
  reveal: (id: number): QueryKey[] => [opsKeys.customerAudit(id), opsKeys.audit],
  /** A refund on the merchant's behalf: the customer's page, the merchant's refunds, today's refund figures. */
  refund: (id: number): QueryKey[] => [opsKeys.customer(id), opsKeys.merchants, opsKeys.home, opsKeys.audit],
  /** A decision, a strike or an upload ban: the queues, today's open reports and the creator's page. */
  moderation: (creatorId: number): QueryKey[] => [
    opsKeys.moderation,
    opsKeys.home,
    opsKeys.customer(creatorId),
    opsKeys.audit,
  ],
  /** A contact note: the customer's timeline, the lists (a promise date shows on the overdue list). */
  note: (id: number): QueryKey[] => [opsKeys.timeline(id), opsKeys.customerAudit(id), opsKeys.lists, opsKeys.audit],
  merchants: (): QueryKey[] => [opsKeys.merchants, opsKeys.audit],
  staff: (): QueryKey[] => [opsKeys.staff, opsKeys.audit],
};
