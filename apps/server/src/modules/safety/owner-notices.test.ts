import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents, shorts } from '../../db/schema';
import { withTx } from '../../db/tx';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { noticesAfterDispatch } from '../../test/notice-helpers';
import { trustedReporter } from '../../test/reporter-fixture';
import { insertShorts } from '../../test/shorts-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { hideContent } from './content-visibility';

/**
 * docs/rules/notifications.md#N2 with docs/rules/shorts.md#S11–S12: the owner of a short or comment taken
 * down (by a moderator or by the report threshold) or put back hears of it once, from an event recorded in
 * the hide's own transaction.
 */

let h: Harness;
let moderator: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  moderator = (await signedInOperator(h, 'MODERATOR')).auth;
});
afterAll(() => h.close());

type Customer = { token: string; customerId: number };

const report = (viewer: Customer, targetType: 'SHORT' | 'COMMENT', targetId: number) =>
  h.app.inject({
    method: 'POST',
    url: '/api/shorts/reports',
    headers: bearer(viewer.token),
    payload: { targetType, targetId, reason: 'SPAM' },
  });

async function caseOf(targetType: 'SHORT' | 'COMMENT', targetId: number): Promise<number> {
  for (const state of ['OPEN', 'HIDDEN']) {
    const res = await h.app.inject({ method: 'GET', url: `/api/ops/moderation?state=${state}`, headers: moderator });
    const found = (res.json().items as Array<{ caseId: number; targetType: string; targetId: number }>).find(
      (c) => c.targetType === targetType && c.targetId === targetId,
    );
    if (found) return found.caseId;
  }
  throw new Error(`no moderation case for ${targetType} ${targetId}`);
}

async function decide(caseId: number, action: 'HIDE' | 'RESTORE' | 'DISMISS') {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/ops/moderation/${caseId}/decision`,
    headers: moderator,
    payload: { action, reason: '검토 결과' },
  });
  expect(res.statusCode).toBe(200);
}

const summary = async (customerId: number) =>
  (await noticesAfterDispatch(h, customerId)).map((n) => ({
    kind: n.kind,
    title: n.title,
    body: n.body,
    link: n.link,
  }));

describe('the owner of moderated content is notified', () => {
  it('a moderator hides a short: one notice for its owner, none for the reporter; a restore tells them too', async () => {
    const owner = await h.signUp();
    const reporter = await h.signUp();
    const [shortsId] = await insertShorts(h.database.db, owner.customerId, [
      { title: '숨겨질 영상', createdAt: h.clock.now() },
    ]);
    const id = shortsId as number;
    expect((await report(reporter, 'SHORT', id)).statusCode).toBe(200);
    expect(await summary(owner.customerId)).toEqual([]);

    const caseId = await caseOf('SHORT', id);
    await decide(caseId, 'HIDE');
    // A second HIDE of a hidden short changes nothing and tells nobody again.
    await decide(caseId, 'HIDE');
    expect(await summary(owner.customerId)).toEqual([
      {
        kind: 'content_hidden',
        title: '쇼츠가 숨겨졌어요',
        body: "'숨겨질 영상' 영상이 운영정책 위반으로 숨겨졌어요.",
        link: '/shorts/profile',
      },
    ]);
    expect(await summary(reporter.customerId)).toEqual([]);

    await decide(caseId, 'RESTORE');
    expect((await summary(owner.customerId)).map((n) => [n.kind, n.body, n.link])).toEqual([
      ['content_hidden', "'숨겨질 영상' 영상이 운영정책 위반으로 숨겨졌어요.", '/shorts/profile'],
      ['content_restored', "검토 결과 '숨겨질 영상' 영상이 다시 공개되었어요.", `/shorts/feeds?shortsId=${id}`],
    ]);
  });

  it('a comment hidden by the reports of three trusted customers tells its author once, pending review; a dismiss brings it back', async () => {
    const creator = await h.signUp();
    const author = await h.signUp();
    const [shortsId] = await insertShorts(h.database.db, creator.customerId, [
      { title: '댓글 달린 영상', createdAt: h.clock.now() },
    ]);
    const added = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${shortsId}/comments`,
      headers: bearer(author.token),
      payload: { content: '신고가 쌓일 댓글', gno: 0 },
    });
    const commentId = added.json().data.commentId as number;
    for (let i = 0; i < 3; i++) {
      expect((await report(await trustedReporter(h), 'COMMENT', commentId)).statusCode).toBe(200);
    }
    const hidden = {
      kind: 'content_hidden',
      title: '댓글이 숨겨졌어요',
      body: "신고가 여러 건 접수되어 '신고가 쌓일 댓글' 댓글을 검토하는 동안 숨겨 두었어요.",
      link: `/shorts/feeds?shortsId=${shortsId}`,
    };
    expect(await summary(author.customerId)).toEqual([hidden]);
    // The short's owner is not the comment's author: nothing for them about it.
    expect((await summary(creator.customerId)).map((n) => n.kind)).not.toContain('content_hidden');

    // The moderator confirms the hide: already hidden, so no second notice.
    const caseId = await caseOf('COMMENT', commentId);
    await decide(caseId, 'HIDE');
    expect(await summary(author.customerId)).toEqual([hidden]);

    await decide(caseId, 'DISMISS');
    expect((await summary(author.customerId)).at(-1)).toEqual({
      kind: 'content_restored',
      title: '다시 공개되었어요',
      body: "검토 결과 '신고가 쌓일 댓글' 댓글이 다시 공개되었어요.",
      link: `/shorts/feeds?shortsId=${shortsId}&commentId=${commentId}`,
    });
  });

  it('a hide that rolls back leaves the short up and its owner without a notice', async () => {
    const owner = await h.signUp();
    const [shortsId] = await insertShorts(h.database.db, owner.customerId, [
      { title: '되돌려질 숨김', createdAt: h.clock.now() },
    ]);
    const id = shortsId as number;
    await expect(
      withTx(h.database.db, async (tx) => {
        expect(await hideContent(tx, 'SHORT', id, h.clock.now(), 'MODERATOR')).toBe(true);
        throw new Error('the decision failed after the hide');
      }),
    ).rejects.toThrow('the decision failed after the hide');
    const [row] = await h.database.db.select({ status: shorts.status }).from(shorts).where(eq(shorts.id, id));
    expect(row?.status).toBe('READY');
    expect(
      await h.database.db.select().from(domainEvents).where(eq(domainEvents.customerId, owner.customerId)),
    ).toEqual([]);
    expect(await summary(owner.customerId)).toEqual([]);
  });
});
