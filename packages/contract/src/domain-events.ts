import { z } from 'zod';
import { DEBIT_RESULTS } from './autopay';
import { SUSPENSION_REASONS } from './bill-rules';
import { GRADE_NAMES } from './grades';
import { POINT_REASON_CODES } from './point-reasons';
import { REPORT_TARGETS } from './safety-rules';

/*
 * The facts of money, points and grade that other parts of the product react to (notifications, receipts,
 * audit, analytics), declared once. The server records each one in the transaction of its fact (the
 * `domain_events` outbox table, `apps/server/src/events/record-event.ts`): an event exists exactly when its
 * fact committed. A consumer reads the rows and parses `payload` with `domainEvent`; adding a consumer never
 * touches the fact's code. Amounts are KRW or points as integers; months are KST 'YYYY-MM', dates 'YYYY-MM-DD'.
 */

const id = z.number().int().positive();
const krw = z.number().int().nonnegative();
const month = z.string().regex(/^\d{4}-\d{2}$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const customer = { customerId: id };

/** A grade and its points, before or after a change. */
const gradeState = z.object({ gradePoint: z.number().int().min(0), grade: z.enum(GRADE_NAMES) });

/** A debit's failing answers (autopay.ts). */
const DEBIT_FAILURES = DEBIT_RESULTS.filter((r) => r !== 'paid') as [
  'insufficient_funds',
  'account_closed',
  'unavailable',
];

/** A moderated item: a short, or a comment on the short `shortId`, and its first characters to name it. */
const moderatedItem = {
  target: z.enum(REPORT_TARGETS),
  targetId: id,
  shortId: id,
  /** The short's title, or the comment's first characters. */
  preview: z.string(),
};

/** Why grade points moved (docs/rules/bills-and-grades.md#G2, #G3; docs/rules/payments.md#P15). */
export const GRADE_CHANGE_REASONS = ['REPAYMENT', 'REFUND', 'AUTO_EXTENSION', 'OVERDUE'] as const;

export const domainEvent = z.discriminatedUnion('type', [
  /** A final paid a request: the purchase line, what went on the bill, the points used and earned. */
  z.object({
    type: z.literal('payment.completed'),
    ...customer,
    paymentId: id,
    requestId: z.string().uuid(),
    merchantId: id,
    requestName: z.string(),
    totalPrice: krw,
    pointUsed: krw,
    /** What goes on the bill: totalPrice − pointUsed. */
    price: krw,
    pointEarned: krw,
    month,
  }),
  /** A merchant refunded a paid request (docs/rules/payments.md#P14–P16). */
  z.object({
    type: z.literal('payment.refunded'),
    ...customer,
    paymentId: id,
    requestId: z.string().uuid(),
    merchantId: id,
    price: krw,
    /** The line had been repaid: `payout` KRW go back to the linked account. 0 for an unpaid line. */
    payout: krw,
    pointsReturned: krw,
    pointsTakenBack: krw,
  }),
  /**
   * A merchant cancelled its still active request (docs/rules/webhooks.md#W3). A merchant's fact: no customer.
   */
  z.object({ type: z.literal('payment.cancelled'), requestId: z.string().uuid(), merchantId: id }),
  /**
   * An unpaid request passed its expiry and the expiry sweep closed it (ADR 0237): recorded at its expiry
   * instant. Reads decide expiry by the clock before this; the event is the fact for those who listen.
   */
  z.object({ type: z.literal('payment.expired'), requestId: z.string().uuid(), merchantId: id }),
  /** Lines repaid in one immutable record: by the customer (EARLY) or by an automatic debit (AUTOMATIC). */
  z.object({
    type: z.literal('repayment.made'),
    ...customer,
    repaymentId: id,
    how: z.enum(['EARLY', 'AUTOMATIC']),
    amount: krw,
    paymentIds: z.array(id),
    months: z.array(month),
  }),
  /** A month closed with unpaid lines: its statement is due (docs/rules/bills-and-grades.md#B1). */
  z.object({
    type: z.literal('statement.issued'),
    ...customer,
    month,
    amount: krw,
    lines: z.number().int().positive(),
    dueDate: date,
  }),
  /** A statement's due date moved to the end of the next month (#B5 by the customer, #B9 by the job). */
  z.object({
    type: z.literal('statement.extended'),
    ...customer,
    month,
    by: z.enum(['CUSTOMER', 'JOB']),
    dueDate: date,
    /** Grade points it cost (0 when the customer asked). */
    penalty: z.number().int().nonnegative(),
  }),
  /** A statement passed its due date unpaid (docs/rules/bills-and-grades.md#B10). */
  z.object({
    type: z.literal('statement.overdue'),
    ...customer,
    month,
    amount: krw,
    penalty: z.number().int().nonnegative(),
  }),
  /** Suspension began (an overdue statement) or lifted (none left), docs/rules/bills-and-grades.md#B10–B11. */
  /**
   * Why (docs/rules/bills-and-grades.md#B10, operations.md#O5): an overdue bill, or an operator (suspected
   * identity theft, a dispute). Events recorded before the reason existed read as OVERDUE / REPAID.
   */
  z.object({ type: z.literal('account.suspended'), ...customer, reason: z.enum(SUSPENSION_REASONS).optional() }),
  /** Lifted because the overdue debt was repaid, or by an operator. */
  z.object({
    type: z.literal('account.suspension_lifted'),
    ...customer,
    reason: z.enum(['REPAID', 'STAFF']).optional(),
  }),
  /** Risk changed the customer's monthly limit (docs/rules/operations.md#O8); null: the grade's applies. */
  z.object({
    type: z.literal('credit_limit.changed'),
    ...customer,
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
    creditLimit: z.number().int().nonnegative().nullable(),
  }),
  /** Grade points moved; `from.grade !== to.grade` is a grade up or down. */
  z.object({
    type: z.literal('grade.changed'),
    ...customer,
    reason: z.enum(GRADE_CHANGE_REASONS),
    from: gradeState,
    to: gradeState,
  }),
  /** One point ledger row (docs/rules/points.md): signed amount, its reason and the balance after it. */
  z.object({
    type: z.literal('points.posted'),
    ...customer,
    amount: z.number().int(),
    reason: z.enum(POINT_REASON_CODES),
    refType: z.string(),
    refId: z.string(),
    balance: z.number().int().nonnegative(),
    /** The point ledger row's idempotency key: the fact's own id (absent on events recorded before it was). */
    key: z.string().optional(),
  }),
  /** Autopay debited the linked account and repaid the statement (docs/rules/bills-and-grades.md#B16). */
  z.object({
    type: z.literal('autopay.succeeded'),
    ...customer,
    month,
    /** What the bank took. */
    amount: krw,
    date,
    /** Of `amount`, what no line still owed (owed back, `autopay.surplus_refunded`); absent on older events. */
    surplus: krw.optional(),
  }),
  /**
   * The bank took more than was still owed (lines paid or refunded while the debit was asked) and gave the
   * surplus back to the linked account (docs/rules/bills-and-grades.md#B18).
   */
  z.object({ type: z.literal('autopay.surplus_refunded'), ...customer, month, amount: krw, date }),
  /** Autopay's debit failed; it is tried again the next day until the statement is overdue (#B16). */
  z.object({
    type: z.literal('autopay.failed'),
    ...customer,
    month,
    amount: krw,
    date,
    reason: z.enum(DEBIT_FAILURES),
  }),
  /** The clock's reminder before a due date: D-3 or D-day (docs/rules/notifications.md#N5). */
  z.object({
    type: z.literal('bill.reminder'),
    ...customer,
    month,
    amount: krw,
    dueDate: date,
    daysLeft: z.number().int().min(0),
    autopay: z.boolean(),
  }),
  /**
   * Staff asked a customer to pay now (docs/rules/operations.md#O20): the oldest bill with unpaid lines, and
   * whether it is overdue. At most one a customer a KST day.
   */
  z.object({
    type: z.literal('bill.payment_requested'),
    ...customer,
    month,
    amount: krw,
    overdue: z.boolean(),
  }),
  /** An upload finished processing (docs/rules/shorts.md#S7): the short is READY or FAILED. */
  z.object({
    type: z.literal('shorts.upload_finished'),
    ...customer,
    shortId: id,
    title: z.string(),
    status: z.enum(['READY', 'FAILED']),
  }),
  /** A short became READY: its creator (`customerId`) published it; subscribers hear of it. */
  z.object({ type: z.literal('shorts.published'), ...customer, shortId: id, title: z.string(), nickname: z.string() }),
  /** A comment (`customerId` its author) on someone's short, possibly a reply to someone's comment. */
  z.object({
    type: z.literal('shorts.comment_added'),
    ...customer,
    shortId: id,
    commentId: id,
    shortOwnerId: id,
    parentAuthorId: id.nullable(),
    nickname: z.string(),
    /** The comment's first characters. */
    preview: z.string(),
  }),
  /**
   * A short or a comment of `customerId` was taken out of every read path (docs/rules/shorts.md#S11, #S12):
   * by the report threshold, pending review (`REPORTS`), or by a moderator (`MODERATOR`).
   */
  z.object({
    type: z.literal('shorts.content_hidden'),
    ...customer,
    ...moderatedItem,
    by: z.enum(['REPORTS', 'MODERATOR']),
  }),
  /** A moderator put a hidden short or comment of `customerId` back (restore, or dismiss of an auto-hidden one). */
  z.object({ type: z.literal('shorts.content_restored'), ...customer, ...moderatedItem }),
  /**
   * A merchant's KST day closed into a settlement (docs/rules/settlement.md): its amounts as fixed at close. Its
   * fees post to the ledger. A merchant's fact: no customer.
   */
  z.object({
    type: z.literal('settlement.closed'),
    settlementId: id,
    merchantId: id,
    date,
    sales: krw,
    refunds: krw,
    fees: z.number().int(),
    net: z.number().int(),
    payout: krw,
    dueDate: date,
  }),
  /** The bank credited a settlement's payout to the merchant's account; it posts the payout to the ledger. */
  z.object({
    type: z.literal('settlement.paid'),
    settlementId: id,
    merchantId: id,
    date,
    amount: krw,
    bank: z.string(),
    /** Masked, like everywhere an account is shown. */
    account: z.string(),
  }),
  /**
   * A 1원 인증 code was recorded and its deposit asked of the bank (docs/rules/bills-and-grades.md#B22): the won
   * leaves the product's bank and posts to the ledger as verification expense.
   */
  z.object({ type: z.literal('account.verification_deposited'), ...customer, verificationId: id, amount: krw }),
  /** The bank refused a code's 1원 deposit (the account is closed): its posting is reversed. */
  z.object({ type: z.literal('account.verification_refused'), ...customer, verificationId: id, amount: krw }),
  /** Watch points reached the daily cap (docs/rules/points.md#R6). */
  z.object({ type: z.literal('shorts.watch_cap_reached'), ...customer, date, limit: z.number().int().positive() }),
]);
export type DomainEvent = z.infer<typeof domainEvent>;
export type DomainEventType = DomainEvent['type'];
/** An event about one customer (every event but a merchant's own facts: settlements, cancels, expiries). */
export type CustomerEvent = Extract<DomainEvent, { customerId: number }>;
export const isCustomerEvent = (event: DomainEvent): event is CustomerEvent => 'customerId' in event;
/** One event type's shape, e.g. `DomainEventOf<'payment.completed'>`. */
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
