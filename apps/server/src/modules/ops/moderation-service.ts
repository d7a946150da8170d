import { kstDate, kstIso } from '@ohgood/contract/kst';
import type { ModerationCase } from '@ohgood/contract/ops';
import { type ModerationAction, REPORT_REASONS, type ReportReason } from '@ohgood/contract/safety-rules';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contentReports, customers, moderationCases, shortComments, shorts } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { type ContentChanged, hideContent, restoreContent } from '../safety/content-visibility';
import { writeAudit } from './audit';
import { actorOf, type StaffPrincipal } from './staff-principal';

type CaseRow = typeof moderationCases.$inferSelect;
type QueueState = 'OPEN' | 'HIDDEN' | 'CLOSED';

/** Waiting for a moderator: reported and visible, or hidden by the report threshold (docs/rules/shorts.md#S11). */
const awaitingReview = or(
  eq(moderationCases.state, 'OPEN'),
  and(eq(moderationCases.state, 'HIDDEN'), eq(moderationCases.autoHidden, true)),
);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The moderation queue and a moderator's decisions (docs/rules/shorts.md#S12–S14): hide, restore, dismiss,
 * strike a creator, ban uploads for some days. Each decision and its audit row commit together; hidden content
 * leaves every read path at once (`ContentChanged`).
 */
export function createModerationService(db: Db, clock: Clock, mediaBaseUrl: string, contentChanged: ContentChanged) {
  async function describe(rows: CaseRow[]): Promise<ModerationCase[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const reports = await db
      .select({ caseId: contentReports.caseId, reason: contentReports.reason, text: contentReports.text })
      .from(contentReports)
      .where(inArray(contentReports.caseId, ids));
    const commentIds = rows.filter((r) => r.targetType === 'COMMENT').map((r) => r.targetId);
    const commentRows = commentIds.length
      ? await db.select().from(shortComments).where(inArray(shortComments.id, commentIds))
      : [];
    // A comment's case names the short it is on, so the short is read for both kinds.
    const shortIds = [
      ...new Set([
        ...rows.filter((r) => r.targetType === 'SHORT').map((r) => r.targetId),
        ...commentRows.map((c) => c.shortId),
      ]),
    ];
    const shortRows = shortIds.length ? await db.select().from(shorts).where(inArray(shorts.id, shortIds)) : [];
    const creators = await db
      .select({ id: customers.id, nickname: customers.nickname, strikes: customers.strikes })
      .from(customers)
      .where(inArray(customers.id, [...new Set(rows.map((r) => r.creatorId))]));
    return rows.map((row) => {
      const mine = reports.filter((r) => r.caseId === row.id);
      const creator = creators.find((c) => c.id === row.creatorId);
      const isShort = row.targetType === 'SHORT';
      const comment = isShort ? undefined : commentRows.find((c) => c.id === row.targetId);
      const shortsId = isShort ? row.targetId : (comment?.shortId ?? 0);
      const short = shortRows.find((s) => s.id === shortsId);
      return {
        caseId: row.id,
        targetType: row.targetType,
        targetId: row.targetId,
        state: row.state,
        autoHidden: row.autoHidden,
        reportCount: row.reportCount,
        reportWeight: row.reportWeight,
        reasons: REPORT_REASONS.map((reason: ReportReason) => ({
          reason,
          count: mine.filter((r) => r.reason === reason).length,
        })).filter((r) => r.count > 0),
        texts: mine.map((r) => r.text).filter((text) => text.length > 0),
        creatorId: row.creatorId,
        creatorNickname: creator?.nickname ?? '',
        creatorStrikes: creator?.strikes ?? 0,
        title: isShort ? (short?.title ?? '') : '댓글',
        body: isShort ? (short?.content ?? '') : (comment?.content ?? ''),
        videoPath: isShort ? (short?.videoKey ?? null) : null,
        shortsId,
        shortTitle: short?.title ?? '',
        openedAt: kstIso(row.openedAt),
      };
    });
  }

  return {
    async queue(state: QueueState) {
      const where = state === 'OPEN' ? awaitingReview : eq(moderationCases.state, state);
      // Waiting cases by their reports' weight first (docs/rules/shorts.md#S11): trusted reporters' cases come
      // up before a flood of fresh accounts'.
      const order = state === 'OPEN' ? [desc(moderationCases.reportWeight), asc(moderationCases.openedAt)] : [];
      const rows = await db
        .select()
        .from(moderationCases)
        .where(where)
        .orderBy(...order, asc(moderationCases.openedAt))
        .limit(100);
      return { items: await describe(rows), mediaBaseUrl };
    },

    async openCount(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(moderationCases).where(awaitingReview);
      return Number(row?.n ?? 0);
    },

    async decide(by: StaffPrincipal, caseId: number, action: ModerationAction, reason: string) {
      const now = clock.now();
      const { row, changed } = await withTx(db, async (tx) => {
        const [before] = await tx.select().from(moderationCases).where(eq(moderationCases.id, caseId)).for('update');
        if (!before) throw notFound('REPORT_NOT_FOUND', '신고 건을 찾을 수 없습니다.');
        const changed =
          action === 'HIDE'
            ? await hideContent(tx, before.targetType, before.targetId, now, 'MODERATOR')
            : await restoreContent(tx, before.targetType, before.targetId, now);
        const [after] = await tx
          .update(moderationCases)
          .set({ state: action === 'HIDE' ? 'HIDDEN' : 'CLOSED', autoHidden: false, reviewed: true, decidedAt: now })
          .where(eq(moderationCases.id, caseId))
          .returning();
        // The ruling is the reporters' track record: it moves the weight of their later reports.
        await tx
          .update(contentReports)
          .set({ outcome: action === 'HIDE' ? 'UPHELD' : 'DISMISSED' })
          .where(and(eq(contentReports.caseId, caseId), isNull(contentReports.outcome)));
        await writeAudit(tx, actorOf(by), now, {
          action: `moderation.${action.toLowerCase()}`,
          targetType: before.targetType === 'SHORT' ? 'short' : 'comment',
          targetId: before.targetId,
          reason,
          before: { state: before.state, autoHidden: before.autoHidden },
          after: { state: after?.state },
        });
        return { row: after ?? before, changed };
      });
      if (changed) contentChanged();
      const [described] = await describe([row]);
      return described as ModerationCase;
    },

    async strike(by: StaffPrincipal, customerId: number, reason: string) {
      return withTx(db, async (tx) => {
        const [row] = await tx
          .update(customers)
          .set({ strikes: sql`${customers.strikes} + 1` })
          .where(eq(customers.id, customerId))
          .returning({ strikes: customers.strikes });
        if (!row) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'creator.strike',
          targetType: 'customer',
          targetId: customerId,
          reason,
          before: { strikes: row.strikes - 1 },
          after: { strikes: row.strikes },
        });
        return { customerId, strikes: row.strikes };
      });
    },

    /** No uploads until `days` KST days from now have passed. */
    async uploadBan(by: StaffPrincipal, customerId: number, days: number, reason: string) {
      const until = new Date(clock.now().getTime() + days * DAY_MS);
      return withTx(db, async (tx) => {
        const [before] = await tx
          .select({ until: customers.uploadBannedUntil })
          .from(customers)
          .where(eq(customers.id, customerId))
          .for('update');
        if (!before) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
        await tx.update(customers).set({ uploadBannedUntil: until }).where(eq(customers.id, customerId));
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'creator.upload-ban',
          targetType: 'customer',
          targetId: customerId,
          reason,
          before: { uploadBannedUntil: before.until },
          after: { uploadBannedUntil: until, days, endsOn: kstDate(until) },
        });
        return { customerId, bannedUntil: kstIso(until) };
      });
    },
  };
}
export type ModerationService = ReturnType<typeof createModerationService>;
