import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCK_AND_REPORT } from '@ohgood/contract/safety-rules';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceChange } from '../../cache-changes';
import { auditLog, customers, shortComments } from '../../db/schema';
import { workRoot } from '../../lib/work-dir';
import { heardEverythingAnnounced } from '../../test/announced';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { trustedReporter } from '../../test/reporter-fixture';
import { insertShorts } from '../../test/shorts-fixture';
import { signedInOperator } from '../../test/staff-fixture';

/** docs/rules/shorts.md#S10–S14: reports, moderation, blocks and upload bans, on every read path. */

let h: Harness;
let moderator: Record<string, string>;

beforeAll(async () => {
  // The anonymous answers are cached for a minute here, so a hide must drop them itself.
  h = await createHarness({ config: { PUBLIC_CACHE_MS: 60_000, PUBLIC_FEED_CACHE_MS: 60_000 } });
  moderator = (await signedInOperator(h, 'MODERATOR')).auth;
});
afterAll(() => h.close());

type Viewer = { token: string; customerId: number };

/**
 * A new playable short, listed in the anonymous feed as well: a new short reaches that feed with the ranking's
 * next refresh (ADR 0152), announced here through the refresh job's own call, and heard before the test reads.
 */
async function aShort(title: string) {
  const creator = await h.signUp();
  const [id] = await insertShorts(h.database.db, creator.customerId, [{ title, createdAt: h.clock.now() }]);
  await announceChange(h.database.db, 'ranking');
  await heardEverythingAnnounced(h.database, [h.app]);
  return { creator, shortsId: id as number };
}

const report = (viewer: Viewer, body: object) =>
  h.app.inject({ method: 'POST', url: '/api/shorts/reports', headers: bearer(viewer.token), payload: body });

async function idsOfFeed(viewer?: Viewer): Promise<number[]> {
  const url = viewer ? '/api/shorts/feeds?page=1&size=50' : '/api/public/shorts/feeds?page=1&size=50';
  const res = await h.app.inject({ method: 'GET', url, headers: viewer ? bearer(viewer.token) : {} });
  return res.json().data.map((item: { shortsId: number }) => item.shortsId);
}

async function idsOfSearch(q: string, viewer?: Viewer): Promise<number[]> {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/public/shorts/search?q=${encodeURIComponent(q)}`,
    headers: viewer ? bearer(viewer.token) : {},
  });
  return res.json().items.map((item: { shortsId: number }) => item.shortsId);
}

async function profileIds(viewer: Viewer, targetId: number): Promise<number[]> {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/shorts/profile?targetId=${targetId}`,
    headers: bearer(viewer.token),
  });
  return res.json().data.shortsList.map((item: { shortsId: number }) => item.shortsId);
}

async function queue() {
  const res = await h.app.inject({ method: 'GET', url: '/api/ops/moderation', headers: moderator });
  return res.json().items as Array<{
    caseId: number;
    targetId: number;
    targetType: string;
    reportCount: number;
    title: string;
    body: string;
    shortsId: number;
    shortTitle: string;
  }>;
}

describe('reports (S10, S11)', () => {
  it('takes one report per customer per item, never of your own, and 기타 needs a text', async () => {
    const { creator, shortsId } = await aShort('신고 대상 하나');
    const reporter = await h.signUp();
    const first = await report(reporter, { targetType: 'SHORT', targetId: shortsId, reason: 'SPAM' });
    expect(first.json()).toMatchObject({ success: true, message: '신고가 접수되었습니다. 검토 후 조치할게요.' });
    const again = await report(reporter, { targetType: 'SHORT', targetId: shortsId, reason: 'HATE' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_REPORTED');
    expect((await report(creator, { targetType: 'SHORT', targetId: shortsId, reason: 'SPAM' })).json().code).toBe(
      'SELF_REPORT',
    );
    const other = await h.signUp();
    expect((await report(other, { targetType: 'SHORT', targetId: shortsId, reason: 'OTHER' })).statusCode).toBe(400);
    const listed = (await queue()).find((c) => c.targetId === shortsId && c.targetType === 'SHORT');
    expect(listed?.reportCount).toBe(1);
  });
});

const DAY_MS = 24 * 60 * 60 * 1000;

async function caseOf(shortsId: number) {
  return (await queue()).find((c) => c.targetId === shortsId && c.targetType === 'SHORT') as
    | { caseId: number; state: string; autoHidden: boolean; reportCount: number; reportWeight: number }
    | undefined;
}

const decide = (caseId: number, action: 'HIDE' | 'DISMISS') =>
  h.app.inject({
    method: 'POST',
    url: `/api/ops/moderation/${caseId}/decision`,
    headers: moderator,
    payload: { action, reason: '검토 결과' },
  });

describe('report weights (S11)', () => {
  it('three new accounts report one short and then every short of a feed, and nothing is hidden', async () => {
    const made = [];
    for (let i = 0; i < 8; i++) made.push((await aShort(`새 계정 신고 대상 ${i}`)).shortsId);
    const fresh = [await h.signUp(), await h.signUp(), await h.signUp()];
    for (const reporter of fresh) {
      for (const shortsId of made) {
        expect((await report(reporter, { targetType: 'SHORT', targetId: shortsId, reason: 'SPAM' })).statusCode).toBe(
          200,
        );
      }
    }
    const feed = await idsOfFeed(await h.signUp());
    for (const shortsId of made) {
      expect(feed).toContain(shortsId);
      // In the queue for a moderator, weighed as three accounts under a day old.
      expect(await caseOf(shortsId)).toMatchObject({
        state: 'OPEN',
        autoHidden: false,
        reportCount: 3,
        reportWeight: 30,
      });
    }
  });

  it('three customers of standing hide a short with the third report, pending review', async () => {
    const { shortsId } = await aShort('신뢰 신고 대상');
    const trusted = [await trustedReporter(h), await trustedReporter(h), await trustedReporter(h)];
    for (const [i, reporter] of trusted.entries()) {
      await report(reporter, { targetType: 'SHORT', targetId: shortsId, reason: 'SEXUAL' });
      expect((await idsOfFeed()).includes(shortsId)).toBe(i < 2);
    }
    expect(await caseOf(shortsId)).toMatchObject({ autoHidden: true, state: 'HIDDEN', reportWeight: 300 });
  });

  it('hides nothing by the reports of old accounts without a payment, or of accounts newer than the content', async () => {
    const { shortsId } = await aShort('결제 없는 계정의 신고');
    for (let i = 0; i < 5; i++) {
      const reporter = await h.signUp();
      const joined = new Date(h.clock.now().getTime() - 30 * DAY_MS);
      await h.database.db.update(customers).set({ createdAt: joined }).where(eq(customers.id, reporter.customerId));
      await report(reporter, { targetType: 'SHORT', targetId: shortsId, reason: 'SPAM' });
    }
    expect(await caseOf(shortsId)).toMatchObject({ state: 'OPEN', reportWeight: 5 * 60 });

    const creator = await h.signUp();
    const [old] = await insertShorts(h.database.db, creator.customerId, [
      { title: '오래된 영상', createdAt: new Date(h.clock.now().getTime() - 60 * DAY_MS) },
    ]);
    for (let i = 0; i < 4; i++) {
      await report(await trustedReporter(h), { targetType: 'SHORT', targetId: old as number, reason: 'SPAM' });
    }
    expect(await caseOf(old as number)).toMatchObject({ state: 'OPEN', autoHidden: false, reportWeight: 400 });
  });

  it('ranks the queue by weight: one trusted report before two fresh ones opened earlier', async () => {
    const early = await aShort('새 계정 둘의 신고');
    await report(await h.signUp(), { targetType: 'SHORT', targetId: early.shortsId, reason: 'SPAM' });
    await report(await h.signUp(), { targetType: 'SHORT', targetId: early.shortsId, reason: 'SPAM' });
    h.clock.advance(60_000);
    const late = await aShort('신뢰 계정 하나의 신고');
    await report(await trustedReporter(h), { targetType: 'SHORT', targetId: late.shortsId, reason: 'SPAM' });
    const order = (await queue()).map((c) => c.targetId);
    expect(order.indexOf(late.shortsId)).toBeLessThan(order.indexOf(early.shortsId));
  });

  it("moves a reporter's weight by how moderators ruled on their earlier reports", async () => {
    const upheld = await trustedReporter(h);
    for (let i = 0; i < 2; i++) {
      const target = await aShort(`인용된 신고 ${i}`);
      await report(upheld, { targetType: 'SHORT', targetId: target.shortsId, reason: 'SPAM' });
      expect((await decide((await caseOf(target.shortsId))?.caseId ?? 0, 'HIDE')).statusCode).toBe(200);
    }
    const next = await aShort('인용 후 신고');
    await report(upheld, { targetType: 'SHORT', targetId: next.shortsId, reason: 'SPAM' });
    // 60 (a month old) + 40 (a payment) + 2 × 25 (upheld), the most a report weighs.
    expect((await caseOf(next.shortsId))?.reportWeight).toBe(150);

    const dismissed = await trustedReporter(h);
    const restored = await aShort('기각될 신고');
    await report(dismissed, { targetType: 'SHORT', targetId: restored.shortsId, reason: 'SPAM' });
    expect((await decide((await caseOf(restored.shortsId))?.caseId ?? 0, 'DISMISS')).statusCode).toBe(200);
    const after = await aShort('기각 후 신고');
    await report(dismissed, { targetType: 'SHORT', targetId: after.shortsId, reason: 'SPAM' });
    // 60 + 40 − 50 (one dismissed report).
    expect((await caseOf(after.shortsId))?.reportWeight).toBe(50);
  });

  it('caps a reporter at 10 reports an hour even when sent at once, with a Korean message, and 30 a day', async () => {
    const reporter = await h.signUp();
    const creator = await h.signUp();
    const targets = await insertShorts(
      h.database.db,
      creator.customerId,
      Array.from({ length: 55 }, (_, i) => ({ title: `한도 대상 ${i}`, createdAt: h.clock.now() })),
    );
    const answers = await Promise.all(
      targets.slice(0, 15).map((targetId) => report(reporter, { targetType: 'SHORT', targetId, reason: 'SPAM' })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(BLOCK_AND_REPORT.reportsPerHour);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.json()).toMatchObject({
      code: 'TOO_MANY_REPORTS',
      message: '신고는 1시간에 10건까지 할 수 있어요. 잠시 후 다시 시도해 주세요.',
    });

    // One try every 7 minutes for the rest of the day: the hourly cap lets 8–9 an hour through, the daily one 30.
    let accepted = BLOCK_AND_REPORT.reportsPerHour;
    const daily: string[] = [];
    const started = h.clock.now().getTime();
    for (const targetId of targets.slice(15)) {
      h.clock.advance(7 * 60_000);
      const res = await report(reporter, { targetType: 'SHORT', targetId, reason: 'SPAM' });
      if (res.statusCode === 200) accepted += 1;
      else daily.push(res.json().message);
    }
    expect(accepted).toBe(BLOCK_AND_REPORT.reportsPerDay);
    expect(daily.at(-1)).toBe('신고는 하루에 30건까지 할 수 있어요. 내일 다시 시도해 주세요.');
    // The moderator's console session of the later tests lives on this clock.
    h.clock.advance(started - h.clock.now().getTime());
  });
});

describe('hidden content (S12)', () => {
  it('a moderator hides a reported short: gone from feeds (cached ones too), search, profile and one-short; restore brings it back', async () => {
    const { creator, shortsId } = await aShort('숨김대상영상');
    const viewer = await h.signUp();
    await report(viewer, { targetType: 'SHORT', targetId: shortsId, reason: 'VIOLENCE' });
    // Warm the public cache first.
    expect(await idsOfFeed()).toContain(shortsId);
    expect(await idsOfSearch('숨김대상영상')).toContain(shortsId);
    const found = (await queue()).find((c) => c.targetId === shortsId);
    const hide = await h.app.inject({
      method: 'POST',
      url: `/api/ops/moderation/${found?.caseId}/decision`,
      headers: moderator,
      payload: { action: 'HIDE', reason: '폭력적인 장면' },
    });
    expect(hide.json()).toMatchObject({ state: 'HIDDEN' });
    expect(await idsOfFeed()).not.toContain(shortsId);
    expect(await idsOfFeed(viewer)).not.toContain(shortsId);
    expect(await idsOfSearch('숨김대상영상')).toEqual([]);
    expect(await profileIds(viewer, creator.customerId)).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: `/api/public/shorts/${shortsId}` })).statusCode).toBe(404);
    const [audited] = await h.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'moderation.hide'), eq(auditLog.targetId, String(shortsId))));
    expect(audited).toMatchObject({ role: 'MODERATOR', reason: '폭력적인 장면', targetId: String(shortsId) });

    await h.app.inject({
      method: 'POST',
      url: `/api/ops/moderation/${found?.caseId}/decision`,
      headers: moderator,
      payload: { action: 'RESTORE', reason: '재검토 결과 문제 없음' },
    });
    expect(await idsOfFeed()).toContain(shortsId);
  });

  it('a hidden comment reads as gone for everyone; its case names the short it is on', async () => {
    const { shortsId } = await aShort('댓글 숨김');
    const author = await h.signUp();
    const added = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${shortsId}/comments`,
      headers: bearer(author.token),
      payload: { content: '나쁜 댓글', gno: 0 },
    });
    const commentId = added.json().data.commentId as number;
    const comments = async () =>
      (await h.app.inject({ method: 'GET', url: `/api/public/shorts/feeds/${shortsId}/comments` })).json().data;
    expect(await comments()).toHaveLength(1);
    await report(await h.signUp(), { targetType: 'COMMENT', targetId: commentId, reason: 'HATE' });
    const found = (await queue()).find((c) => c.targetType === 'COMMENT' && c.targetId === commentId);
    expect(found).toMatchObject({ body: '나쁜 댓글', shortsId, shortTitle: '댓글 숨김' });
    await h.app.inject({
      method: 'POST',
      url: `/api/ops/moderation/${found?.caseId}/decision`,
      headers: moderator,
      payload: { action: 'HIDE', reason: '혐오 표현' },
    });
    expect(await comments()).toEqual([]);
    const [row] = await h.database.db.select().from(shortComments).where(eq(shortComments.id, commentId));
    expect(row?.hiddenAt).not.toBeNull();
  });
});

describe('blocks (S13)', () => {
  it("hides a creator's shorts and comments for the blocker only, everywhere; unblock brings them back", async () => {
    const { creator, shortsId } = await aShort('차단크리에이터영상');
    const me = await h.signUp();
    const someoneElse = await h.signUp();
    const { shortsId: otherShort } = await aShort('다른 영상');
    await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${otherShort}/comments`,
      headers: bearer(creator.token),
      payload: { content: '차단될 사람의 댓글', gno: 0 },
    });
    const block = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/blocks/${creator.customerId}`,
      headers: bearer(me.token),
    });
    expect(block.json()).toMatchObject({ success: true, data: { blocked: true } });
    expect(await idsOfFeed(me)).not.toContain(shortsId);
    expect(await idsOfSearch('차단크리에이터영상', me)).toEqual([]);
    expect(await profileIds(me, creator.customerId)).toEqual([]);
    const myComments = await h.app.inject({
      method: 'GET',
      url: `/api/public/shorts/feeds/${otherShort}/comments`,
      headers: bearer(me.token),
    });
    expect(myComments.json().data).toEqual([]);
    const one = await h.app.inject({ method: 'GET', url: `/api/public/shorts/${shortsId}`, headers: bearer(me.token) });
    expect(one.statusCode).toBe(404);
    // Nobody else is affected.
    expect(await idsOfFeed(someoneElse)).toContain(shortsId);
    expect(await idsOfFeed()).toContain(shortsId);
    expect(await idsOfSearch('차단크리에이터영상', someoneElse)).toContain(shortsId);
    // The list, then unblock.
    const list = await h.app.inject({ method: 'GET', url: '/api/shorts/blocks', headers: bearer(me.token) });
    expect(list.json().data.map((b: { customerId: number }) => b.customerId)).toEqual([creator.customerId]);
    await h.app.inject({
      method: 'DELETE',
      url: `/api/shorts/blocks/${creator.customerId}`,
      headers: bearer(me.token),
    });
    expect(await idsOfFeed(me)).toContain(shortsId);
    const self = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/blocks/${me.customerId}`,
      headers: bearer(me.token),
    });
    expect(self.json().code).toBe('SELF_BLOCK');
  });
});

describe('upload ban (S14)', () => {
  it('refuses an upload-banned creator with the date the ban ends, in Korean', async () => {
    const creator = await h.signUp();
    const ban = await h.app.inject({
      method: 'POST',
      url: `/api/ops/creators/${creator.customerId}/upload-ban`,
      headers: moderator,
      payload: { days: 7, reason: '반복된 스팸 업로드' },
    });
    expect(ban.statusCode).toBe(200);
    const upload = await h.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...bearer(creator.token), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(upload.statusCode).toBe(403);
    // The harness clock is 2026-11-22 12:00 KST; seven days on is 2026-11-29.
    expect(upload.json()).toMatchObject({
      code: 'UPLOAD_BANNED',
      message: '운영정책 위반으로 2026-11-29까지 쇼츠를 올릴 수 없습니다.',
    });
  });

  it("leaves no scratch directory behind a banned creator's refused upload", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-ban-scratch-'));
    const own = await createHarness({ config: { DATA_DIR: dataDir } });
    try {
      const creator = await own.signUp();
      const until = new Date(own.clock.now().getTime() + 86_400_000);
      await own.database.db
        .update(customers)
        .set({ uploadBannedUntil: until })
        .where(eq(customers.id, creator.customerId));
      const upload = await own.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...bearer(creator.token), 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--\r\n',
      });
      expect(upload.json()).toMatchObject({ code: 'UPLOAD_BANNED' });
      // The scratch directory made beside the ban's look-up is gone; the process's own folder may stay.
      const mine = join(workRoot(dataDir), String(process.pid));
      expect(existsSync(mine) ? readdirSync(mine) : []).toEqual([]);
    } finally {
      await own.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
