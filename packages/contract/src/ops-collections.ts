import { z } from 'zod';
import { ACCOUNT_PATTERN, normalizeAccount } from './auth-rules';
import { defineEndpoint, type StaffAccess } from './endpoint';
import { dbId } from './input';
import { BANKS } from './limits';
import { customerParams, customerRow, reason } from './ops';
import { workListFilter } from './ops-desk';

/**
 * The console's collections and jobs (docs/rules/operations.md#O18–O22): risk retries a failed debit, records a
 * new debit account, reminds a customer and acts on a filtered list; admins re-run a job's missed period.
 */

const COLLECT: StaffAccess = { staff: ['RISK', 'ADMIN'] };
const RERUN: StaffAccess = { staff: ['ADMIN'] };

/* ---- debits ---- */

/** A debit's outcome in the console's words: the bank's answer, or why the run passed it over. */
export const DEBIT_RESULT_LABELS: Record<string, string> = {
  paid: '출금 완료',
  insufficient_funds: '잔액 부족',
  account_closed: '계좌 사용 불가 (해지 등)',
  unavailable: '은행 점검 (응답 없음)',
  unknown: '은행 응답 대기',
  autopay_off: '자동 납부 꺼짐',
  overdue: '연체된 청구서',
  nothing_due: '남은 금액 없음',
};

export const debitRow = z.object({
  attemptId: z.number().int(),
  statementId: z.number().int(),
  month: z.string(),
  /** The KST day the debit belongs to, and its round that day (0 the plan's, 1… staff retries). */
  date: z.string(),
  round: z.number().int(),
  status: z.enum(['PENDING', 'PAID', 'FAILED', 'SKIPPED']),
  /** The bank's answer (paid, insufficient_funds, account_closed, unavailable) or why it was skipped. */
  result: z.string().nullable(),
  /** The answer in the console's words. */
  resultText: z.string(),
  amount: z.number().int().nullable(),
  finishedAt: z.string().nullable(),
});
export type DebitRow = z.infer<typeof debitRow>;
export const debitsResponse = z.object({ items: z.array(debitRow) });

export const retryDebitRequest = z.object({ statementId: dbId(), reason }).strict();
export const retryDebitResponse = z.object({
  debit: debitRow,
  /** false when the bill already had an open debit: that one was asked, no second one was made. */
  created: z.boolean(),
});

export const debitAccountRequest = z
  .object({
    bank: z.enum(BANKS),
    account: z.string().max(40).transform(normalizeAccount).pipe(z.string().regex(ACCOUNT_PATTERN)),
    reason,
  })
  .strict();
export const debitAccountResponse = z.object({
  customerId: z.number().int(),
  bank: z.string(),
  /** Masked. */
  account: z.string(),
  /** Autopay waits for the customer to type the 1원 code in the app. */
  state: z.string(),
});

export const remindResponse = z.object({ customerId: z.number().int(), month: z.string(), amount: z.number().int() });

/* ---- filtered lists and bulk actions ---- */

export const collectionRow = customerRow.extend({
  /** What is unpaid on bills past their due date, and the oldest one's month. */
  owed: z.number().int(),
  oldestMonth: z.string().nullable(),
  overdue: z.boolean(),
  /** Today's refused debit's answer, if any. */
  failedToday: z.string().nullable(),
});
export type CollectionRow = z.infer<typeof collectionRow>;
export const collectionListResponse = z.object({ items: z.array(collectionRow), total: z.number().int() });

export const BULK_ACTIONS = ['remind', 'suspend', 'lift'] as const;
/** A work list's filter (ops-desk `workListFilter`, the same schema the lists take), the action and its reason. */
export const bulkPreviewRequest = workListFilter.extend({ action: z.enum(BULK_ACTIONS), reason }).strict();
export const bulkPreviewResponse = z.object({
  count: z.number().int(),
  /** The first customers affected, masked. */
  rows: z.array(collectionRow),
  /** Names exactly the previewed customers, the action and the reason; confirm acts on these and no others. */
  token: z.string(),
  expiresAt: z.string(),
});
export const bulkConfirmRequest = z.object({ token: z.string().min(20).max(20_000) }).strict();
export const bulkConfirmResponse = z.object({
  action: z.enum(BULK_ACTIONS),
  done: z.array(z.number().int()),
  /** Previewed customers not acted on: they left the filter, or the action did not apply any more. */
  skipped: z.array(z.object({ customerId: z.number().int(), why: z.string() })),
});

/* ---- jobs ---- */

export const jobRunRow = z.object({
  /** A calendar job's KST date or month; a recurring job's due minute (KST); an instance job's start. */
  period: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** `running` until it finishes; `failed` for a recurring run that threw (a failed calendar run rolls back). */
  outcome: z.enum(['done', 'running', 'failed']),
  /** What the run did (issued, extended, overdue, planned, reminded …), why it was skipped, or its error. */
  result: z.record(z.string(), z.unknown()).nullable(),
});
export type JobRunRow = z.infer<typeof jobRunRow>;
export const jobRow = z.object({
  job: z.string(),
  /**
   * A calendar job runs once per KST day or month (its period claimed once in the cluster); a recurring job
   * takes, at each tick, whatever is due then (a missed tick is made up by the next one).
   */
  cadence: z.enum(['daily', 'monthly', 'recurring']),
  /** `cluster`: one instance runs each period; `instance`: every server runs it for its own process. */
  scope: z.enum(['cluster', 'instance']),
  /** Cron (KST), or `every <n>s` for an instance's interval. */
  schedule: z.string(),
  /** The schedule in words. */
  scheduleText: z.string(),
  /** Newest first. An instance job's are the runs of the server that answered. */
  lastRuns: z.array(jobRunRow),
  nextRun: z.string(),
  /** Periods whose time has passed that no run claimed (looking back a bounded window); calendar jobs only. */
  missed: z.array(z.string()),
  /** Whether an admin may re-run a missed period (the calendar jobs). */
  rerunnable: z.boolean(),
});
export type JobRow = z.infer<typeof jobRow>;
export const jobsResponse = z.object({ now: z.string(), items: z.array(jobRow) });
export const jobParams = z.object({ job: z.string().min(1).max(40) });
export const rerunRequest = z.object({ date: z.iso.date(), reason }).strict();
export const rerunResponse = z.object({
  job: z.string(),
  period: z.string(),
  result: z.record(z.string(), z.unknown()).nullable(),
});

const tags = ['ops'] as const;

export const opsCollectionsEndpoints = {
  debits: defineEndpoint({
    method: 'GET',
    path: '/api/ops/customers/:id/debits',
    params: customerParams,
    response: debitsResponse,
    access: COLLECT,
    summary: '고객의 자동 납부 출금 내역 (은행 응답)',
    tags,
  }),
  retryDebit: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/debits/retry',
    params: customerParams,
    body: retryDebitRequest,
    response: retryDebitResponse,
    access: COLLECT,
    summary: '실패한 자동 납부 지금 다시 출금 (한 번만)',
    tags,
  }),
  debitAccount: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/debit-account',
    params: customerParams,
    body: debitAccountRequest,
    response: debitAccountResponse,
    access: COLLECT,
    summary: '출금 계좌 새로 등록 (고객이 1원 인증)',
    tags,
  }),
  remind: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/remind',
    params: customerParams,
    body: z.object({ reason }).strict(),
    response: remindResponse,
    access: COLLECT,
    summary: '납부 안내 지금 보내기 (하루 한 번)',
    tags,
  }),
  collectionList: defineEndpoint({
    method: 'GET',
    path: '/api/ops/collections',
    query: workListFilter,
    response: collectionListResponse,
    access: COLLECT,
    summary: '수납 대상 목록 (업무 목록과 같은 조건)',
    tags,
  }),
  bulkPreview: defineEndpoint({
    method: 'POST',
    path: '/api/ops/collections/bulk/preview',
    body: bulkPreviewRequest,
    response: bulkPreviewResponse,
    access: COLLECT,
    summary: '일괄 처리 미리 보기 (대상 수, 처음 몇 명)',
    tags,
  }),
  bulkConfirm: defineEndpoint({
    method: 'POST',
    path: '/api/ops/collections/bulk/confirm',
    body: bulkConfirmRequest,
    response: bulkConfirmResponse,
    access: COLLECT,
    summary: '미리 본 대상에게만 일괄 처리',
    tags,
  }),
  jobs: defineEndpoint({
    method: 'GET',
    path: '/api/ops/jobs',
    response: jobsResponse,
    access: COLLECT,
    summary: '예약 작업 (일정, 최근 실행, 다음 실행, 빠진 기간)',
    tags,
  }),
  rerunJob: defineEndpoint({
    method: 'POST',
    path: '/api/ops/jobs/:job/runs',
    params: jobParams,
    body: rerunRequest,
    response: rerunResponse,
    access: RERUN,
    summary: '작업의 빠진 기간 다시 실행 (클러스터에서 한 번)',
    tags,
  }),
} as const;
