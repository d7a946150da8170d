import { STAFF_ROLES } from '@ohgood/contract/endpoint';
import { LEDGER_ACCOUNT_KINDS } from '@ohgood/contract/ledger';
import { PAYMENT_REQUEST_STATUSES, PURCHASE_STATUSES } from '@ohgood/contract/payments';
import { POINT_REASON_CODES } from '@ohgood/contract/point-reasons';
import type { ReconciliationMismatch } from '@ohgood/contract/reconciliation';
import { REPORT_REASONS, REPORT_TARGETS } from '@ohgood/contract/safety-rules';
import { PROCESSING_STATUSES } from '@ohgood/contract/shorts';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookEventType } from '@ohgood/contract/webhooks';
import { type SQLWrapper, sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    birth: date('birth').notNull(),
    account: text('account').notNull(),
    accountName: text('account_name').notNull(),
    gradePoint: integer('grade_point').notNull().default(0),
    /** KRW repaid on time that has not yet made a full 10,000 (docs/rules/bills-and-grades.md#G2). */
    repaidRemainder: integer('repaid_remainder').notNull().default(0),
    pointBalance: integer('point_balance').notNull().default(0),
    suspended: boolean('suspended').notNull().default(false),
    /** Debit the linked account on the due date (docs/rules/bills-and-grades.md#B15); on by default. */
    autopay: boolean('autopay').notNull().default(true),
    /** An operator's suspension, held whatever the bills say (docs/rules/operations.md#O5). */
    staffSuspended: boolean('staff_suspended').notNull().default(false),
    /** An operator let an overdue customer pay again until the overdue debt is settled (#O5). */
    overdueLifted: boolean('overdue_lifted').notNull().default(false),
    /** Tokens issued at or before this are refused (docs/rules/operations.md#O5). */
    sessionsRevokedAt: timestamp('sessions_revoked_at', { withTimezone: true }),
    /** Uploads are refused until then (docs/rules/shorts.md#S14). */
    uploadBannedUntil: timestamp('upload_banned_until', { withTimezone: true }),
    strikes: integer('strikes').notNull().default(0),
    /** A limit risk set under the grade's (docs/rules/operations.md#O8); null follows the grade. */
    creditLimit: integer('credit_limit'),
    nickname: text('nickname').notNull(),
    introduce: text('introduce').notNull().default(''),
    profileImg: text('profile_img'),
    createdAt: createdAt(),
    /** Derived by the database for search (migration 0004): lower-cased and initial consonants. */
    nicknameSearch: text('nickname_search').generatedAlwaysAs(sql`lower(nickname)`),
    nicknameChoseong: text('nickname_choseong').generatedAlwaysAs(sql`ohgood_choseong(nickname)`),
  },
  (t) => [
    uniqueIndex('customers_email_key').on(t.email),
    index('customers_created_idx').on(t.createdAt, t.id),
    index('customers_account_idx').on(t.account),
    /** One nickname per creator, whatever its letter case or width (migration 0030, docs/rules/shorts.md#S15). */
    uniqueIndex('customers_nickname_key').on(sql`lower(normalize(${t.nickname}, NFKC))`),
    check('customers_point_balance_nonnegative', sql`${t.pointBalance} >= 0`),
    check('customers_grade_point_range', sql`${t.gradePoint} between 0 and 150`),
    check('customers_credit_limit_nonnegative', sql`${t.creditLimit} >= 0`),
  ],
);

/** One row per (job, period): the unique key makes a scheduled run happen once per cluster. */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    period: text('period').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    result: jsonb('result'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);

/** Fixed-window counters in the database, so limits hold across several server instances. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export const merchants = pgTable('merchants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  category: text('category'),
  /** A disabled merchant's keys open nothing (docs/rules/operations.md#O7). */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  /** The fee on a sale in basis points, and the cycle: paid D+N business days (docs/rules/settlement.md). */
  feeBps: integer('fee_bps').notNull().default(250),
  settlementDays: integer('settlement_days').notNull().default(1),
  /** Set by one operator, verified by another (ADR 0229); payouts wait until it is verified. */
  settlementBank: text('settlement_bank'),
  settlementAccount: text('settlement_account'),
  settlementAccountSetBy: integer('settlement_account_set_by'),
  settlementAccountVerifiedAt: timestamp('settlement_account_verified_at', { withTimezone: true }),
  settlementAccountVerifiedBy: integer('settlement_account_verified_by'),
});

export const merchantApiKeys = pgTable(
  'merchant_api_keys',
  {
    id: serial('id').primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** SHA-256 of the key: keys are long random strings, so a fast hash is enough and lookups stay O(1). */
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    /** A revoked key opens nothing and stays listed in the portal (ADR 0235). */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The key's last four characters, so a shop tells its keys apart; null for keys made before the portal. */
    hint: text('hint'),
  },
  (t) => [uniqueIndex('merchant_api_keys_hash_key').on(t.keyHash)],
);

/** A shop's own people, signing in to the merchant portal (ADR 0234, migration 0075). */
export const merchantUsers = pgTable(
  'merchant_users',
  {
    id: serial('id').primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    totpSecret: text('totp_secret').notNull(),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('merchant_users_email_key').on(t.email), index('merchant_users_merchant_idx').on(t.merchantId)],
);

export const merchantUserEnrolments = pgTable('merchant_user_enrolments', {
  tokenHash: text('token_hash').primaryKey(),
  merchantUserId: integer('merchant_user_id')
    .notNull()
    .references(() => merchantUsers.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const merchantUserSessions = pgTable(
  'merchant_user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantUserId: integer('merchant_user_id')
      .notNull()
      .references(() => merchantUsers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    totpAt: timestamp('totp_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('merchant_user_sessions_user_idx').on(t.merchantUserId)],
);

/** What a merchant user did in the portal (a refund's reason, keys); the runtime role only inserts and reads. */
export const merchantPortalActions = pgTable(
  'merchant_portal_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    merchantUserId: integer('merchant_user_id')
      .notNull()
      .references(() => merchantUsers.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    action: text('action').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
  },
  (t) => [index('merchant_portal_actions_merchant_idx').on(t.merchantId, t.id)],
);

/**
 * "The request is ACTIVE" with the status as a literal: the predicate of the active-request partial indexes,
 * and what queries say, so a prepared statement's generic plan can use those indexes (with the status as a
 * parameter it cannot prove the index predicate, scans the table, and PostgreSQL re-plans on every call).
 */
function activeStatus(status: SQLWrapper) {
  return sql`${status} = 'ACTIVE'`;
}

export const paymentRequests = pgTable(
  'payment_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    orderId: text('order_id').notNull(),
    requestName: text('request_name').notNull(),
    totalPrice: integer('total_price').notNull(),
    pinCode: text('pin_code').notNull(),
    qrToken: text('qr_token').notNull(),
    /** A CHECK constraint (migration 0008) holds it to the contract's enum. */
    status: text('status', { enum: PAYMENT_REQUEST_STATUSES }).notNull().default('ACTIVE'),
    reservedBy: integer('reserved_by').references(() => customers.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_requests_order_key').on(t.merchantId, t.orderId),
    uniqueIndex('payment_requests_qr_key').on(t.qrToken),
    uniqueIndex('payment_requests_active_pin_key').on(t.pinCode).where(activeStatus(t.status)),
    // The expiry sweep and the reservation look only at ACTIVE rows.
    index('payment_requests_active_expiry_idx').on(t.expiresAt).where(activeStatus(t.status)),
    // The merchant portal pages a merchant's requests newest first.
    index('payment_requests_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    check('payment_requests_total_price_range', sql`${t.totalPrice} between 1 and 10000000`),
  ],
);

/** Queries match active requests with the very predicate of the partial indexes above (see `activeStatus`). */
export const isActiveRequest = activeStatus(paymentRequests.status);

/**
 * Monthly statement per customer (docs/rules/bills-and-grades.md#B1); a purchase belongs to the statement of its KST
 * month.
 */
export const statements = pgTable(
  'statements',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    month: text('month').notNull(),
    /** null | MANUAL | AUTO */
    extension: text('extension'),
    extendedAt: timestamp('extended_at', { withTimezone: true }),
    overdueAt: timestamp('overdue_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('statements_customer_month_key').on(t.customerId, t.month),
    index('statements_overdue_idx').on(t.customerId).where(sql`${t.overdueAt} is not null`),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    requestId: uuid('request_id')
      .notNull()
      .references(() => paymentRequests.id),
    requestName: text('request_name').notNull(),
    totalPrice: integer('total_price').notNull(),
    pointUsed: integer('point_used').notNull(),
    /** What the customer owes: totalPrice − pointUsed. */
    price: integer('price').notNull(),
    pointEarned: integer('point_earned').notNull(),
    statementMonth: text('statement_month').notNull(),
    /** A CHECK constraint (migration 0008) holds it to the contract's enum. */
    status: text('status', { enum: PURCHASE_STATUSES }).notNull().default('UNPAID'),
    repaymentId: integer('repayment_id'),
    /**
     * The autopay attempt collecting this line, from the claim that fixes its debit until the bank's answer is
     * recorded: an early payment of it meanwhile is refused (docs/rules/bills-and-grades.md#B18, migration 0059).
     */
    collectingAttemptId: integer('collecting_attempt_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('purchases_request_key').on(t.requestId),
    index('purchases_customer_month_idx').on(t.customerId, t.statementMonth),
    // The exports' range scans (migration 0073).
    index('purchases_created_idx').on(t.createdAt, t.id),
    index('purchases_refunded_idx').on(t.refundedAt, t.id).where(sql`${t.refundedAt} is not null`),
    check(
      'purchases_amounts',
      sql`${t.pointUsed} >= 0 and ${t.price} >= 0 and ${t.price} + ${t.pointUsed} = ${t.totalPrice}`,
    ),
  ],
);

/**
 * Immutable record of one early/immediate repayment (docs/rules/bills-and-grades.md#B8): where a bank gateway would
 * plug in.
 */
export const repayments = pgTable(
  'repayments',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    amount: integer('amount').notNull(),
    purchaseIds: jsonb('purchase_ids').$type<number[]>().notNull(),
    account: text('account').notNull(),
    accountName: text('account_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('repayments_customer_idx').on(t.customerId), index('repayments_created_idx').on(t.createdAt, t.id)],
);

/** Money sent back to the linked account when an already-repaid purchase is refunded (docs/rules/payments.md#P14). */
export const refundPayouts = pgTable('refund_payouts', {
  id: serial('id').primaryKey(),
  purchaseId: integer('purchase_id')
    .notNull()
    .references(() => purchases.id),
  customerId: integer('customer_id')
    .notNull()
    .references(() => customers.id),
  amount: integer('amount').notNull(),
  account: text('account').notNull(),
  accountName: text('account_name').notNull(),
  createdAt: createdAt(),
});

/** Every change of points, immutable (docs/rules/points.md#R1). Σ amount = customers.point_balance. */
export const pointLedger = pgTable(
  'point_ledger',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    amount: integer('amount').notNull(),
    reason: text('reason', { enum: POINT_REASON_CODES }).notNull(),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    kstDate: date('kst_date').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('point_ledger_idempotency_key').on(t.idempotencyKey),
    index('point_ledger_customer_date_idx').on(t.customerId, t.kstDate),
  ],
);

/** Stored replies for client-supplied Idempotency-Key headers, per customer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    customerId: integer('customer_id').notNull(),
    key: text('key').notNull(),
    scope: text('scope').notNull(),
    response: jsonb('response').notNull(),
    /** Hash of the exact request the key was first used with (0007_hardening); null for internal keys. */
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.scope, t.key] })],
);

/**
 * The domain-event outbox (migration 0015, ADR 0111): one row per fact, written in the fact's transaction by
 * `events/record-event.ts`; `payload` is the contract's `domainEvent`. The relay (`events/relay.ts`) claims
 * undispatched rows.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    customerId: integer('customer_id'),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [
    index('domain_events_undispatched_idx').on(t.id).where(sql`${t.dispatchedAt} is null`),
    index('domain_events_customer_idx').on(t.customerId, t.id),
    // The /payment card's latest limit change (migration 0058).
    index('domain_events_credit_limit_changed_idx')
      .on(t.customerId, t.id)
      .where(sql`${t.type} = 'credit_limit.changed'`),
  ],
);

/**
 * Outbox deliveries a consumer failed (migration 0072, ADR 0213): retried for that consumer alone, with
 * back-off, until one commits and removes its row.
 */
export const domainEventRetries = pgTable(
  'domain_event_retries',
  {
    consumer: text('consumer').notNull(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => domainEvents.id),
    attempts: integer('attempts').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    lastError: text('last_error').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.consumer, t.eventId] }),
    index('domain_event_retries_due_idx').on(t.consumer, t.dueAt),
  ],
);

/**
 * The double-entry ledger (docs/rules/ledger.md, migration 0070): accounts by kind and owner (0 for the
 * product's own), entries unique on their source fact, lines of signed won (debit positive). Entries are posted
 * by the database from `domain_events` in the fact's transaction; the database holds each entry to a zero sum
 * and keeps the journal append-only.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    ownerId: integer('owner_id').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.ownerId] })],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sourceKind: text('source_kind').notNull(),
    sourceId: text('source_id').notNull(),
    eventId: bigint('event_id', { mode: 'number' }),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('ledger_entries_source_key').on(t.sourceKind, t.sourceId)],
);

export const ledgerLines = pgTable(
  'ledger_lines',
  {
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    accountKind: text('account_kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    ownerId: integer('owner_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.accountKind, t.ownerId] }),
    index('ledger_lines_account_idx').on(t.accountKind, t.ownerId),
  ],
);

export const checkins = pgTable(
  'checkins',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kstDate: date('kst_date').notNull(),
    point: integer('point').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.kstDate] })],
);

export type Customer = typeof customers.$inferSelect;

/* ---- Shorts (docs/rules/shorts.md, docs/rules/points.md#R5–R6) ---- */

/** One uploaded or seeded short. Only READY rows are playable and appear in feeds. */
export const shorts = pgTable(
  'shorts',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** Storage key of the playable fast-start MP4 (relative media path). */
    videoKey: text('video_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    /** Storage key of the original upload while it waits for transcoding; null once processed. */
    sourceKey: text('source_key'),
    durationMs: integer('duration_ms').notNull().default(0),
    width: integer('width').notNull().default(0),
    height: integer('height').notNull().default(0),
    /** A CHECK constraint (migration 0008) holds it to the contract's enum. */
    status: text('status', { enum: PROCESSING_STATUSES }).notNull().default('PROCESSING'),
    failureReason: text('failure_reason'),
    /** The instance transcoding this PROCESSING short, and until when its lease holds (migration 0047). */
    transcodeOwner: text('transcode_owner'),
    transcodeLeaseUntil: timestamp('transcode_lease_until', { withTimezone: true }),
    likeCount: integer('like_count').notNull().default(0),
    dislikeCount: integer('dislike_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: createdAt(),
    /** Derived by the database for search (migration 0004; pg_trgm GIN indexes). */
    searchText: text('search_text').generatedAlwaysAs(sql`lower(title || ' ' || content)`),
    searchChoseong: text('search_choseong').generatedAlwaysAs(sql`ohgood_choseong(title || ' ' || content)`),
  },
  (t) => [
    index('shorts_status_created_idx').on(t.status, t.createdAt),
    index('shorts_customer_idx').on(t.customerId, t.createdAt),
    index('shorts_processing_lease_idx').on(t.transcodeLeaseUntil).where(sql`${t.status} = 'PROCESSING'`),
    // Media keys (migration 0054): the media sweep's and the demo seed's lookups.
    index('shorts_video_key_idx').on(t.videoKey),
    index('shorts_thumbnail_key_idx').on(t.thumbnailKey),
    index('shorts_source_key_idx').on(t.sourceKey).where(sql`${t.sourceKey} is not null`),
    check('shorts_counts_nonnegative', sql`${t.likeCount} >= 0 and ${t.dislikeCount} >= 0 and ${t.commentCount} >= 0`),
  ],
);

/** Media objects whose delete is owed, retried by the media sweep until the store confirms it (migration 0048). */
export const mediaDeletions = pgTable(
  'media_deletions',
  {
    key: text('key').primaryKey(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('media_deletions_due_idx').on(t.dueAt)],
);

/** One reaction per customer per short (docs/rules/shorts.md#S3). */
export const shortReactions = pgTable(
  'short_reactions',
  {
    shortId: integer('short_id')
      .notNull()
      .references(() => shorts.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** like | dislike */
    type: text('type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shortId, t.customerId] }), index('short_reactions_customer_idx').on(t.customerId)],
);

/** Comments with one level of replies (parentId null = top level); soft-deleted rows keep their replies. */
export const shortComments = pgTable(
  'short_comments',
  {
    id: serial('id').primaryKey(),
    shortId: integer('short_id')
      .notNull()
      .references(() => shorts.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    parentId: integer('parent_id'),
    content: text('content').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Taken down by moderation (docs/rules/shorts.md#S12): read as deleted. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('short_comments_short_idx').on(t.shortId, t.id),
    index('short_comments_customer_idx').on(t.customerId, t.createdAt),
  ],
);

export const shortSubscriptions = pgTable(
  'short_subscriptions',
  {
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => customers.id),
    targetId: integer('target_id')
      .notNull()
      .references(() => customers.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriberId, t.targetId] }),
    index('short_subscriptions_target_idx').on(t.targetId),
    check('short_subscriptions_not_self', sql`${t.subscriberId} <> ${t.targetId}`),
  ],
);

/** A play started by a logged-in viewer (docs/rules/points.md#R5); a reward consumes one view. */
export const shortViews = pgTable(
  'short_views',
  {
    id: serial('id').primaryKey(),
    shortId: integer('short_id')
      .notNull()
      .references(() => shorts.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    rewardedAt: timestamp('rewarded_at', { withTimezone: true }),
  },
  (t) => [index('short_views_customer_short_idx').on(t.customerId, t.shortId, t.startedAt)],
);

/** Watch points per customer per KST day; the CHECK is the last guard of the daily cap. */
export const shortWatchDaily = pgTable(
  'short_watch_daily',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kstDate: date('kst_date').notNull(),
    total: integer('total').notNull().default(0),
    /** End of the last second of watching already paid (0007_hardening): claims never overlap in time. */
    watchedUntil: timestamp('watched_until', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.kstDate] }),
    check('short_watch_daily_cap', sql`${t.total} between 0 and 100`),
  ],
);

/* ---- Performance (migration 0003): the stored feed ranking ---- */

/**
 * The one instant every stored score's freshness term is evaluated at (docs/rules/shorts.md#S1); moved forward
 * about once a minute by the ranking refresh. Triggers on `shorts` keep `short_ranks` in step.
 */
export const shortRankClock = pgTable('short_rank_clock', {
  id: smallint('id').primaryKey().default(1),
  decayAt: timestamp('decay_at', { withTimezone: true }).notNull(),
});

/** One row per playable short: its time-independent base and its score at `short_rank_clock.decay_at`. */
export const shortRanks = pgTable(
  'short_ranks',
  {
    shortId: integer('short_id')
      .primaryKey()
      .references(() => shorts.id, { onDelete: 'cascade' }),
    base: doublePrecision('base').notNull(),
    score: doublePrecision('score').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('short_ranks_order_idx').on(t.score.desc(), t.createdAt.desc(), t.shortId.desc()),
    index('short_ranks_created_idx').on(t.createdAt),
  ],
);

/**
 * Every hashtag of each short's description, lower-cased, with the short's date, kept by a
 * trigger on `shorts` (migration 0051): search's '#x' is a range of `tag` read newest first.
 */
export const shortHashtags = pgTable(
  'short_hashtags',
  {
    shortId: integer('short_id')
      .notNull()
      .references(() => shorts.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shortId, t.tag] }),
    index('short_hashtags_by_tag').using('btree', sql`${t.tag} text_pattern_ops`, t.createdAt.desc(), t.shortId.desc()),
  ],
);

/* ---------- Chatbot: product catalogue and conversation sessions ---------- */

/** Demo products the mascot recommends (docs/rules/chat.md#C4); images are generated at seed time into media. */
export const chatProducts = pgTable(
  'chat_products',
  {
    id: serial('id').primaryKey(),
    /** Stable seed key, so seeding is idempotent. */
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    imageKey: text('image_key').notNull(),
    url: text('url').notNull(),
    category: text('category').notNull(),
    hobby: text('hobby').notNull(),
    moods: text('moods').array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_products_slug_key').on(t.slug),
    index('chat_products_hobby_price_idx').on(t.hobby, t.price),
    check('chat_products_price_range', sql`${t.price} between 1 and 10000000`),
  ],
);

/** One conversation, owned by the customer who started it; forgotten after an hour idle. */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    /** The client's id (docs/rules/chat.md#C1), unique within its customer: the key is (customer_id, id), migration 0057. */
    id: text('id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    flow: text('flow').notNull(),
    mood: text('mood'),
    hobby: text('hobby'),
    shownProductIds: integer('shown_product_ids').array().notNull().default(sql`'{}'`),
    options: jsonb('options').$type<string[]>().notNull(),
    pending: jsonb('pending'),
    history: jsonb('history').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.id] }), index('chat_sessions_updated_at_idx').on(t.updatedAt)],
);

/** The built-in sandbox bank's balances (modules/bank/sandbox-bank.ts); not the product's money. */
export const sandboxBankAccounts = pgTable(
  'sandbox_bank_accounts',
  {
    bank: text('bank').notNull(),
    account: text('account').notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    /** open | closed (debits answer account_closed) | unavailable (the bank is down for this account) */
    state: text('state').notNull().default('open'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.bank, t.account] })],
);

/** A money movement the sandbox bank answered, by the caller's idempotency key: a repeat answers the same. */
const sandboxBankRecord = (name: string) =>
  pgTable(name, {
    idempotencyKey: text('idempotency_key').primaryKey(),
    bank: text('bank').notNull(),
    account: text('account').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    result: text('result').notNull(),
    createdAt: createdAt(),
  });

/** Every debit the sandbox bank answered (docs/rules/bills-and-grades.md#B17). */
export const sandboxBankDebits = sandboxBankRecord('sandbox_bank_debits');
/** Every credit it answered: an autopay surplus given back (#B18, migration 0059). */
export const sandboxBankCredits = sandboxBankRecord('sandbox_bank_credits');

/**
 * One KST day's reconciliation of the bank's movements with our books (docs/rules/bills-and-grades.md#B20,
 * migration 0067): replaced when the day is reconciled again.
 */
export const reconciliations = pgTable('reconciliations', {
  day: date('day').primaryKey(),
  reconciledAt: timestamp('reconciled_at', { withTimezone: true }).notNull(),
  bankDebits: integer('bank_debits').notNull(),
  bankDebitSum: bigint('bank_debit_sum', { mode: 'number' }).notNull(),
  bankCredits: integer('bank_credits').notNull(),
  bankCreditSum: bigint('bank_credit_sum', { mode: 'number' }).notNull(),
  bookDebits: integer('book_debits').notNull(),
  bookDebitSum: bigint('book_debit_sum', { mode: 'number' }).notNull(),
  bookCredits: integer('book_credits').notNull(),
  bookCreditSum: bigint('book_credit_sum', { mode: 'number' }).notNull(),
  mismatchCount: integer('mismatch_count').notNull(),
  mismatches: jsonb('mismatches').$type<ReconciliationMismatch[]>().notNull(),
});
/** Every 1원 verification deposit the sandbox bank made, with its depositor name: the customer's "bank app". */
export const sandboxBankDeposits = pgTable(
  'sandbox_bank_deposits',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    bank: text('bank').notNull(),
    account: text('account').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    result: text('result').notNull(),
    depositorName: text('depositor_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_bank_deposits_account_idx').on(t.bank, t.account, t.createdAt)],
);

/** Consent to autopay debits and its withdrawal, append-only (docs/rules/bills-and-grades.md#B21, migration 0068). */
export const autopayConsents = pgTable(
  'autopay_consents',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** GRANTED | WITHDRAWN */
    action: text('action').notNull(),
    bank: text('bank').notNull(),
    account: text('account').notNull(),
    wordingVersion: text('wording_version').notNull(),
    /** On the app clock. */
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('autopay_consents_customer_idx').on(t.customerId, t.id),
    index('autopay_consents_account_idx').on(t.account),
  ],
);

/** One 1원 인증 code sent to a customer's linked account (docs/rules/bills-and-grades.md#B22–#B23). */
export const accountVerifications = pgTable(
  'account_verifications',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    bank: text('bank').notNull(),
    account: text('account').notNull(),
    /** HMAC of the code, never the code. */
    codeHash: text('code_hash').notNull(),
    /** SENT (open) | VERIFIED | LOCKED (too many wrong codes) | REPLACED (a newer code) | NOT_DELIVERED */
    status: text('status').notNull().default('SENT'),
    tries: smallint('tries').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    /** One owner per bank account: the race between two customers is settled here. */
    uniqueIndex('account_verifications_one_owner_key').on(t.bank, t.account).where(sql`${t.status} = 'VERIFIED'`),
    uniqueIndex('account_verifications_one_open_key').on(t.customerId).where(sql`${t.status} = 'SENT'`),
    index('account_verifications_customer_idx').on(t.customerId, t.sentAt),
    index('account_verifications_account_idx').on(t.account),
  ],
);

/** One autopay debit per (statement, KST day) (docs/rules/bills-and-grades.md#B16). */
export const autopayAttempts = pgTable(
  'autopay_attempts',
  {
    id: serial('id').primaryKey(),
    statementId: integer('statement_id')
      .notNull()
      .references(() => statements.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kstDate: date('kst_date').notNull(),
    /** 0 for the plan's attempt; each staff retry on the same day takes the next (migration 0077). */
    round: integer('round').notNull().default(0),
    /** PENDING | PAID | FAILED | SKIPPED */
    status: text('status').notNull().default('PENDING'),
    amount: integer('amount'),
    purchaseIds: integer('purchase_ids').array(),
    /** The bank's last answer (paid, insufficient_funds, account_closed, unavailable) or why it was skipped. */
    result: text('result'),
    tries: integer('tries').notNull().default(0),
    nextTryAt: timestamp('next_try_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    repaymentId: integer('repayment_id').references(() => repayments.id),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** What the bank took for lines paid meanwhile, owed back through its credit (B18, migration 0059). */
    surplus: integer('surplus').notNull().default(0),
    surplusRefundedAt: timestamp('surplus_refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('autopay_attempts_statement_day_round_key').on(t.statementId, t.kstDate, t.round),
    /** A statement has one open attempt at most: never two debits of one bill in flight. */
    uniqueIndex('autopay_attempts_one_open_key').on(t.statementId).where(sql`${t.status} = 'PENDING'`),
    index('autopay_attempts_day_idx').on(t.kstDate, t.id),
    index('autopay_attempts_customer_idx').on(t.customerId, t.id),
    index('autopay_attempts_surplus_owed_idx').on(t.id).where(sql`${t.surplus} > 0 and ${t.surplusRefundedAt} is null`),
  ],
);

/** A notice in the notification center (docs/rules/notifications.md). */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    dedupeKey: text('dedupe_key').notNull(),
    kind: text('kind').notNull(),
    category: text('category').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    pushDueAt: timestamp('push_due_at', { withTimezone: true }),
    pushedAt: timestamp('pushed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key').on(t.dedupeKey),
    index('notifications_customer_idx').on(t.customerId),
  ],
);

export const notificationPreferences = pgTable('notification_preferences', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  billingPush: boolean('billing_push').notNull().default(true),
  communityInApp: boolean('community_in_app').notNull().default(true),
  communityPush: boolean('community_push').notNull().default(true),
  benefitInApp: boolean('benefit_in_app').notNull().default(true),
  benefitPush: boolean('benefit_push').notNull().default(true),
  quietHours: boolean('quiet_hours').notNull().default(true),
  quietStart: smallint('quiet_start').notNull().default(1260),
  quietEnd: smallint('quiet_end').notNull().default(480),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A Web Push subscription of one device. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint)],
);

/**
 * One notice's push to one device (migration 0065): deleted once its attempt succeeded or the device is gone;
 * a failure counts an attempt and waits until `nextAttemptAt` (docs/rules/notifications.md#N6).
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.noticeId, t.subscriptionId] }),
    index('push_deliveries_next_attempt_idx').on(t.nextAttemptAt),
    index('push_deliveries_subscription_idx').on(t.subscriptionId),
  ],
);

/* ---------- Operator console (docs/rules/operations.md, migration 0025) ---------- */

export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    passwordHash: text('password_hash'),
    totpSecret: text('totp_secret').notNull(),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_email_key').on(t.email)],
);

export const staffEnrolments = pgTable('staff_enrolments', {
  tokenHash: text('token_hash').primaryKey(),
  staffId: integer('staff_id')
    .notNull()
    .references(() => staff.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    totpAt: timestamp('totp_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);

/** Something staff must look at, shown on the console's home (ADR 0200, migration 0067). */
export const staffAlerts = pgTable(
  'staff_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** What the alert is about, within its kind (a reconciliation's KST day): one alert per pair. */
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_alerts_kind_subject_key').on(t.kind, t.subject),
    index('staff_alerts_open_idx').on(t.raisedAt).where(sql`${t.resolvedAt} is null`),
  ],
);

/** Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE (docs/rules/operations.md#O6). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    staffId: integer('staff_id').references(() => staff.id),
    staffName: text('staff_name').notNull(),
    role: text('role').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    index('audit_log_staff_idx').on(t.staffId, t.id),
    index('audit_log_at_idx').on(t.at, t.id),
  ],
);

/** What staff recorded after calling or messaging a customer; append-only (docs/rules/operations.md#O17). */
export const contactNotes = pgTable(
  'contact_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    staffId: integer('staff_id').references(() => staff.id),
    staffName: text('staff_name').notNull(),
    /** CALL | MESSAGE */
    channel: text('channel').notNull(),
    /** REACHED | NO_ANSWER | PROMISED | DISPUTED | OTHER */
    outcome: text('outcome').notNull(),
    /** The day the customer promised to pay by (KST); shown on the overdue list. */
    promiseDate: date('promise_date'),
    body: text('body').notNull(),
    /** On the app clock. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('contact_notes_customer_idx').on(t.customerId, t.id),
    index('contact_notes_promise_idx').on(t.customerId, t.id).where(sql`${t.promiseDate} is not null`),
  ],
);

/* ---------- Community safety (docs/rules/shorts.md#S10–S14, migration 0026) ---------- */

export const moderationCases = pgTable(
  'moderation_cases',
  {
    id: serial('id').primaryKey(),
    targetType: text('target_type', { enum: REPORT_TARGETS }).notNull(),
    targetId: integer('target_id').notNull(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => customers.id),
    state: text('state', { enum: ['OPEN', 'HIDDEN', 'CLOSED'] })
      .notNull()
      .default('OPEN'),
    autoHidden: boolean('auto_hidden').notNull().default(false),
    reviewed: boolean('reviewed').notNull().default(false),
    reportCount: integer('report_count').notNull().default(0),
    /** Sums of its reports' `weight` and `hideWeight` (docs/rules/shorts.md#S11, migration 0056). */
    reportWeight: integer('report_weight').notNull().default(0),
    hideWeight: integer('hide_weight').notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('moderation_cases_target_key').on(t.targetType, t.targetId),
    index('moderation_cases_state_idx').on(t.state, t.openedAt),
    index('moderation_cases_weight_idx')
      .on(t.reportWeight.desc(), t.openedAt)
      .where(sql`${t.state} = 'OPEN' or (${t.state} = 'HIDDEN' and ${t.autoHidden})`),
  ],
);

export const contentReports = pgTable(
  'content_reports',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => moderationCases.id),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => customers.id),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    text: text('text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** By the reporter's standing when reported, in hundredths of a trusted report (S11, migration 0056). */
    weight: integer('weight').notNull().default(0),
    /** The part of `weight` that may hide the item by itself (0 from reporters not yet trusted to). */
    hideWeight: integer('hide_weight').notNull().default(0),
    /** A moderator's ruling on the case: it moves the reporter's later weight. */
    outcome: text('outcome', { enum: ['UPHELD', 'DISMISSED'] }),
  },
  (t) => [
    uniqueIndex('content_reports_once_key').on(t.caseId, t.reporterId),
    index('content_reports_reporter_idx').on(t.reporterId, t.createdAt),
  ],
);

export const creatorBlocks = pgTable(
  'creator_blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => customers.id),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => customers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    check('creator_blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/**
 * A merchant's webhook endpoints (docs/rules/webhooks.md, migration 0074): the events each takes and its
 * signing secret; after a rotation the previous secret signs too until `previousSecretUntil`.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  merchantId: integer('merchant_id')
    .notNull()
    .references(() => merchants.id),
  url: text('url').notNull(),
  events: text('events').array().notNull().$type<WebhookEventType[]>(),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Each event a merchant hears of, once, with the exact body its deliveries send and sign. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  // The prune's oldest-first read of events no delivery refers to (migration 0081).
  (t) => [index('webhook_events_created_idx').on(t.createdAt, t.id)],
);

/**
 * One event to one endpoint: its retry schedule and its last attempt. Unique per (endpoint, event); deliveries
 * of one payment (`orderKey`) to one endpoint go out in id order.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    orderKey: text('order_key'),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    giveUpAt: timestamp('give_up_at', { withTimezone: true }).notNull(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_key').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'PENDING'`),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.orderKey, t.id).where(sql`${t.status} = 'PENDING'`),
    index('webhook_deliveries_merchant_idx').on(t.merchantId, t.id),
    index('webhook_deliveries_settled_idx')
      .on(t.status, t.lastAttemptAt, t.id)
      .where(sql`${t.status} IN ('SUCCEEDED', 'FAILED')`),
    index('webhook_deliveries_event_idx').on(t.eventId),
    // The console's webhook health: an endpoint's latest attempt and its last day's attempts (migration 0080).
    index('webhook_deliveries_endpoint_attempt_idx').on(t.endpointId, t.lastAttemptAt),
  ],
);

/** RISK's holds on a merchant's payouts (docs/rules/settlement.md#M6): one open at a time, kept for good. */
export const merchantPayoutHolds = pgTable('merchant_payout_holds', {
  id: serial('id').primaryKey(),
  merchantId: integer('merchant_id')
    .notNull()
    .references(() => merchants.id),
  reason: text('reason').notNull(),
  heldBy: integer('held_by'),
  heldAt: timestamp('held_at', { withTimezone: true }).notNull(),
  releasedBy: integer('released_by'),
  releasedAt: timestamp('released_at', { withTimezone: true }),
  releaseReason: text('release_reason'),
});

/**
 * One merchant's closed KST day (docs/rules/settlement.md, migration 0078): amounts fixed at close, immutable
 * once PAID or NO_PAYOUT (a trigger refuses; the runtime role may update only the payout's own columns).
 */
export const settlements = pgTable('settlements', {
  id: serial('id').primaryKey(),
  merchantId: integer('merchant_id')
    .notNull()
    .references(() => merchants.id),
  businessDate: date('business_date').notNull(),
  feeBps: integer('fee_bps').notNull(),
  sales: bigint('sales', { mode: 'number' }).notNull(),
  refunds: bigint('refunds', { mode: 'number' }).notNull(),
  fees: bigint('fees', { mode: 'number' }).notNull(),
  carriedIn: bigint('carried_in', { mode: 'number' }).notNull(),
  net: bigint('net', { mode: 'number' }).notNull(),
  payout: bigint('payout', { mode: 'number' }).notNull(),
  dueDate: date('due_date').notNull(),
  status: text('status', { enum: ['PENDING', 'PAID', 'NO_PAYOUT'] }).notNull(),
  closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
  payoutBank: text('payout_bank'),
  payoutAccount: text('payout_account'),
  attempts: integer('attempts').notNull().default(0),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  nextTryAt: timestamp('next_try_at', { withTimezone: true }),
  lastResult: text('last_result'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
});

/** A settlement's sales and refunds; each payment's sale and refund in exactly one settlement. */
export const settlementLines = pgTable(
  'settlement_lines',
  {
    settlementId: integer('settlement_id')
      .notNull()
      .references(() => settlements.id),
    kind: text('kind', { enum: ['SALE', 'REFUND'] }).notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => purchases.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    fee: bigint('fee', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.paymentId] })],
);
