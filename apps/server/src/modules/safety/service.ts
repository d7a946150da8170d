import { kstDate } from '@ohgood/contract/kst';
import type { BlockedCreator, ReportRequest } from '@ohgood/contract/safety';
import { BLOCK_AND_REPORT, type ReportTarget, SAFETY_MSG } from '@ohgood/contract/safety-rules';
import { and, desc, eq, gt, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contentReports, creatorBlocks, customers, moderationCases, shortComments, shorts } from '../../db/schema';
import { type Executor, isUniqueViolation, withTx } from '../../db/tx';
import type { Cache } from '../../lib/cache-home';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { type ContentChanged, hideContent } from './content-visibility';
import { reportWeight, standingOf } from './reporter-standing';

/** The creator of a visible short or comment and when it was made, or SHORT_NOT_FOUND / COMMENT_NOT_FOUND. */
async function reportedItem(db: Executor, target: ReportTarget, id: number): Promise<{ creator: number; at: Date }> {
  if (target === 'SHORT') {
    const [row] = await db
      .select({ creator: shorts.customerId, at: shorts.createdAt })
      .from(shorts)
      .where(and(eq(shorts.id, id), eq(shorts.status, 'READY')));
    if (!row) throw notFound('SHORT_NOT_FOUND', '영상을 찾을 수 없습니다.');
    return row;
  }
  const [row] = await db
    .select({ creator: shortComments.customerId, at: shortComments.createdAt })
    .from(shortComments)
    .where(and(eq(shortComments.id, id), isNull(shortComments.deletedAt), isNull(shortComments.hiddenAt)));
  if (!row) throw notFound('COMMENT_NOT_FOUND', '댓글을 찾을 수 없습니다.');
  return row;
}

/**
 * The customer side of community safety (docs/rules/shorts.md#S10–S14): reports that open a moderation case
 * (and hide the item pending review at the threshold), blocks of creators, and the upload ban check.
 */
export function createSafetyService(
  db: Db,
  clock: Clock,
  contentChanged: ContentChanged,
  /** Whom each viewer blocked, dropped on 'blocks_changed' (migration 0055's trigger announces blocks). */
  blockedCache: Cache<number, ReadonlySet<number>>,
) {
  return {
    /**
     * One report per customer per item, within the reporter's hourly and daily caps, weighed by their standing;
     * the report that brings the case's hiding weight to the threshold hides the item until a moderator decides.
     */
    async report(reporter: number, input: ReportRequest): Promise<{ reportId: number }> {
      const item = await reportedItem(db, input.targetType, input.targetId);
      if (item.creator === reporter) throw badRequest('SELF_REPORT', SAFETY_MSG.selfReport);
      const now = clock.now();
      const outcome = await withTx(db, async (tx) => {
        const { weight, hideWeight } = reportWeight(await standingOf(tx, reporter, item.at, now));
        await tx
          .insert(moderationCases)
          .values({ targetType: input.targetType, targetId: input.targetId, creatorId: item.creator, openedAt: now })
          .onConflictDoNothing();
        const [found] = await tx
          .select()
          .from(moderationCases)
          .where(and(eq(moderationCases.targetType, input.targetType), eq(moderationCases.targetId, input.targetId)))
          .for('update');
        if (!found) throw notFound('REPORT_NOT_FOUND', '신고 건을 찾을 수 없습니다.');
        let reportId: number;
        try {
          const [row] = await tx
            .insert(contentReports)
            .values({
              caseId: found.id,
              reporterId: reporter,
              reason: input.reason,
              text: input.text ?? '',
              createdAt: now,
              weight,
              hideWeight,
            })
            .returning({ id: contentReports.id });
          reportId = row?.id ?? 0;
        } catch (error) {
          if (isUniqueViolation(error, 'content_reports_once_key')) {
            throw conflict('ALREADY_REPORTED', SAFETY_MSG.alreadyReported);
          }
          throw error;
        }
        const caseHideWeight = found.hideWeight + hideWeight;
        const autoHide =
          !found.reviewed &&
          found.state === 'OPEN' &&
          caseHideWeight >= BLOCK_AND_REPORT.autoHideWeight &&
          (await hideContent(tx, input.targetType, input.targetId, now, 'REPORTS'));
        await tx
          .update(moderationCases)
          .set({
            reportCount: found.reportCount + 1,
            reportWeight: found.reportWeight + weight,
            hideWeight: caseHideWeight,
            // A closed case reopens for a moderator's look; only an unreviewed one hides by itself.
            state: autoHide ? 'HIDDEN' : found.state === 'CLOSED' ? 'OPEN' : found.state,
            autoHidden: autoHide || found.autoHidden,
            ...(found.state === 'CLOSED' ? { openedAt: now } : {}),
          })
          .where(eq(moderationCases.id, found.id));
        return { reportId, autoHide };
      });
      if (outcome.autoHide) contentChanged();
      return { reportId: outcome.reportId };
    },

    async block(blocker: number, blocked: number): Promise<void> {
      if (blocker === blocked) throw badRequest('SELF_BLOCK', SAFETY_MSG.selfBlock);
      const [target] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, blocked));
      if (!target) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      await db
        .insert(creatorBlocks)
        .values({ blockerId: blocker, blockedId: blocked, createdAt: clock.now() })
        .onConflictDoNothing();
      blockedCache.delete(blocker);
    },

    async unblock(blocker: number, blocked: number): Promise<void> {
      await db
        .delete(creatorBlocks)
        .where(and(eq(creatorBlocks.blockerId, blocker), eq(creatorBlocks.blockedId, blocked)));
      blockedCache.delete(blocker);
    },

    async list(blocker: number): Promise<BlockedCreator[]> {
      const rows = await db
        .select({
          customerId: customers.id,
          nickname: customers.nickname,
          profileImg: customers.profileImg,
          blockedAt: creatorBlocks.createdAt,
        })
        .from(creatorBlocks)
        .innerJoin(customers, eq(customers.id, creatorBlocks.blockedId))
        .where(eq(creatorBlocks.blockerId, blocker))
        .orderBy(desc(creatorBlocks.createdAt));
      return rows.map((row) => ({ ...row, blockedAt: row.blockedAt.toISOString() }));
    },

    /** The creators a viewer blocked (empty for an anonymous one), for filters that run after a cached read. */
    async blockedBy(viewer: number | null): Promise<ReadonlySet<number>> {
      if (viewer === null) return new Set();
      const hit = blockedCache.get(viewer);
      if (hit) return hit;
      const readOn = blockedCache.generation();
      const rows = await db
        .select({ id: creatorBlocks.blockedId })
        .from(creatorBlocks)
        .where(eq(creatorBlocks.blockerId, viewer));
      const set = new Set(rows.map((row) => row.id));
      blockedCache.set(viewer, set, readOn);
      return set;
    },

    /** Refuses an upload while the creator is banned, naming the KST date the ban ends (docs/rules/shorts.md#S14). */
    async assertMayUpload(customerId: number): Promise<void> {
      const [row] = await db
        .select({ until: customers.uploadBannedUntil })
        .from(customers)
        .where(and(eq(customers.id, customerId), gt(customers.uploadBannedUntil, clock.now())));
      if (row?.until) throw forbidden('UPLOAD_BANNED', SAFETY_MSG.uploadBanned(kstDate(row.until)));
    },
  };
}
export type SafetyService = ReturnType<typeof createSafetyService>;

/** The creators a viewer blocked (docs/rules/shorts.md#S13), for reads that filter after a shared cached read. */
export type BlockedBy = (viewer: number | null) => Promise<ReadonlySet<number>>;

/**
 * SQL: the creator is not one `viewer` blocked (docs/rules/shorts.md#S13); true for an anonymous viewer. For
 * reads done in SQL, so the filter lives in the query, not in the answer's shaping.
 */
export function notBlockedSql(viewer: number | null, creatorColumn: SQLWrapper) {
  if (viewer === null) return sql`true`;
  return sql`not exists (select 1 from ${creatorBlocks} where ${creatorBlocks.blockerId} = ${viewer} and ${creatorBlocks.blockedId} = ${creatorColumn})`;
}
