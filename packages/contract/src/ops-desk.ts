import { z } from 'zod';
import { AUTOPAY_PENDING_REASONS } from './autopay';
import { defineEndpoint, type StaffAccess, type StaffRole } from './endpoint';
import { GRADE_NAMES } from './grades';
import { plainText } from './input';
import { customerParams, customerRow } from './ops';

/**
 * The operator's desk (docs/rules/operations.md#O16–#O17): the work lists behind the console home's counts, a
 * customer's timeline and contact notes. Rows carry the customer as the search shows them (masked, #O4).
 */

/** Who may do what here (#O1): the collections lists are risk's; support reads the rest and writes notes. */
const READ_CUSTOMERS: StaffAccess = { staff: ['SUPPORT', 'RISK', 'ADMIN'] };
const COLLECT: StaffAccess = { staff: ['RISK', 'ADMIN'] };

/**
 * Narrows a list of customers; every list takes the same filter (the server turns it into one SQL condition,
 * which bulk actions reuse to act on "a filtered list").
 */
export const customerFilter = z.object({
  grade: z.enum(GRADE_NAMES).optional(),
  /** yes/no, or suspended by staff or by the system (an overdue statement). */
  suspended: z.enum(['yes', 'no', 'staff', 'system']).optional(),
  autopay: z.enum(['on', 'off']).optional(),
  overdue: z.enum(['yes', 'no']).optional(),
  /** Joined on or after / on or before, KST dates. */
  joinedFrom: z.iso.date().optional(),
  joinedTo: z.iso.date().optional(),
});
export type CustomerFilter = z.infer<typeof customerFilter>;

/** The work lists; who is on each is one SQL condition on the server, which the lists and bulk actions share. */
export const WORK_LISTS = ['overdue', 'failed-debits', 'autopay-pending'] as const;
export type WorkListName = (typeof WORK_LISTS)[number];
/** A work list narrowed by the filter: what a bulk action (ops-collections) acts on, exactly as the list shows. */
export const workListFilter = customerFilter.extend({ list: z.enum(WORK_LISTS) });
export type WorkListFilter = z.infer<typeof workListFilter>;

/** An opaque keyset cursor the previous page answered. */
const cursor = z.string().max(200).optional();
const direction = z.enum(['desc', 'asc']).default('desc');

export const OVERDUE_SORTS = ['amount', 'days', 'customer'] as const;
export const FAILED_DEBIT_SORTS = ['recent', 'amount'] as const;
export const PENDING_SORTS = ['customer'] as const;

export const overdueQuery = customerFilter.extend({
  sort: z.enum(OVERDUE_SORTS).default('amount'),
  dir: direction,
  cursor,
});
export const failedDebitsQuery = customerFilter.extend({
  sort: z.enum(FAILED_DEBIT_SORTS).default('recent'),
  dir: direction,
  cursor,
});
export const pendingQuery = customerFilter.extend({
  sort: z.enum(PENDING_SORTS).default('customer'),
  dir: direction,
  cursor,
});
export type OverdueQuery = z.infer<typeof overdueQuery>;
export type FailedDebitsQuery = z.infer<typeof failedDebitsQuery>;
export type PendingQuery = z.infer<typeof pendingQuery>;

const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const overdueRow = customerRow.extend({
  /** What the customer owes on overdue statements, KRW. */
  amount: z.number().int(),
  /** Whole KST days since the oldest unpaid statement became overdue. */
  daysOverdue: z.number().int(),
  oldestMonth: z.string(),
  /** The latest promise-to-pay date staff noted (#O17), null when none; it may have passed. */
  promiseDate: z.string().nullable(),
});
export type OverdueRow = z.infer<typeof overdueRow>;

export const failedDebitRow = customerRow.extend({
  attemptId: z.number().int(),
  month: z.string(),
  amount: z.number().int().nullable(),
  /** The bank's answer: insufficient_funds, account_closed, unavailable… */
  result: z.string().nullable(),
  tries: z.number().int(),
  at: z.string(),
});
export type FailedDebitRow = z.infer<typeof failedDebitRow>;

export const pendingRow = customerRow.extend({
  reason: z.enum(AUTOPAY_PENDING_REASONS),
  joinedAt: z.string(),
});
export type PendingRow = z.infer<typeof pendingRow>;

export const overdueResponse = page(overdueRow);
export const failedDebitsResponse = page(failedDebitRow);
export const pendingResponse = page(pendingRow);

/* ---- timeline and contact notes ---- */

export const TIMELINE_KINDS = [
  'payment',
  'refund',
  'statement',
  'extension',
  'overdue',
  'repayment',
  'autopay',
  'notice',
  'staff',
  'note',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const timelineQuery = z.object({ cursor });
export const timelineItem = z.object({
  /** `${kind}:${row id}`, unique in the timeline. */
  id: z.string(),
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  amount: z.number().int().nullable(),
  /** A payment's or debit's status, a staff action's name, a note's outcome. */
  status: z.string().nullable(),
  /** An order name, a statement month, a notice title, a staff reason, a note's text. */
  title: z.string(),
  /** The bank's answer to a debit, a note's channel. */
  detail: z.string().nullable(),
  staffName: z.string().nullable(),
  promiseDate: z.string().nullable(),
});
export type TimelineItem = z.infer<typeof timelineItem>;
export const timelineResponse = page(timelineItem);

export const NOTE_CHANNELS = ['CALL', 'MESSAGE'] as const;
export const NOTE_OUTCOMES = ['REACHED', 'NO_ANSWER', 'PROMISED', 'DISPUTED', 'OTHER'] as const;
/** Who may set a promise-to-pay date: it steers collections (the overdue list), so the roles that collect. */
export const PROMISE_ROLES: readonly StaffRole[] = ['RISK', 'ADMIN'];
/** How far ahead a promise-to-pay date may be set. */
export const PROMISE_MAX_DAYS = 60;

export const noteRequest = z
  .object({
    channel: z.enum(NOTE_CHANNELS),
    outcome: z.enum(NOTE_OUTCOMES),
    promiseDate: z.iso.date().nullable().default(null),
    body: plainText().trim().min(1).max(1000),
  })
  .strict()
  .refine((note) => note.outcome !== 'PROMISED' || note.promiseDate !== null, {
    message: 'a promise needs its date',
    path: ['promiseDate'],
  });
export type NoteRequest = z.input<typeof noteRequest>;
export const noteResponse = z.object({ noteId: z.number().int(), at: z.string() });

const tags = ['ops'] as const;

export const opsDeskEndpoints = {
  overdueList: defineEndpoint({
    method: 'GET',
    path: '/api/ops/lists/overdue',
    query: overdueQuery,
    response: overdueResponse,
    access: COLLECT,
    summary: '연체 고객 목록 (금액, 연체일, 납부 약속일)',
    tags,
  }),
  failedDebitsList: defineEndpoint({
    method: 'GET',
    path: '/api/ops/lists/failed-debits',
    query: failedDebitsQuery,
    response: failedDebitsResponse,
    access: COLLECT,
    summary: '오늘 실패한 자동이체 (은행 응답)',
    tags,
  }),
  pendingVerificationList: defineEndpoint({
    method: 'GET',
    path: '/api/ops/lists/autopay-pending',
    query: pendingQuery,
    response: pendingResponse,
    access: READ_CUSTOMERS,
    summary: '자동이체 인증 대기 고객',
    tags,
  }),
  timeline: defineEndpoint({
    method: 'GET',
    path: '/api/ops/customers/:id/timeline',
    params: customerParams,
    query: timelineQuery,
    response: timelineResponse,
    access: READ_CUSTOMERS,
    summary: '고객 타임라인 (결제, 청구, 상환, 자동이체, 알림, 운영 조치, 상담 메모)',
    tags,
  }),
  addNote: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/notes',
    params: customerParams,
    body: noteRequest,
    response: noteResponse,
    access: READ_CUSTOMERS,
    summary: '상담 메모 추가 (납부 약속일은 리스크 담당만)',
    tags,
  }),
} as const;
