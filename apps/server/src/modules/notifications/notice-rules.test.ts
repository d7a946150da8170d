import type { DomainEvent } from '@ohgood/contract/domain-events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shortSubscriptions } from '../../db/schema';
import { withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { kstAt, noticesAfterDispatch } from '../../test/notice-helpers';
import { DEFAULT_PREFERENCES, deliveryOf } from './preferences';

describe('delivery by preferences and quiet hours (docs/rules/notifications.md#N4)', () => {
  it('holds community and benefit pushes until the quiet hours end; never billing', () => {
    const night = kstAt('2026-12-10', 23, 0);
    expect(deliveryOf('billing', DEFAULT_PREFERENCES, night)).toEqual({ inApp: true, pushAt: night });
    expect(deliveryOf('community', DEFAULT_PREFERENCES, night)).toEqual({
      inApp: true,
      pushAt: kstAt('2026-12-11', 8, 0),
    });
    const early = kstAt('2026-12-11', 6, 30);
    expect(deliveryOf('benefit', DEFAULT_PREFERENCES, early).pushAt).toEqual(kstAt('2026-12-11', 8, 0));
    const noon = kstAt('2026-12-11', 12, 0);
    expect(deliveryOf('community', DEFAULT_PREFERENCES, noon).pushAt).toEqual(noon);
    expect(deliveryOf('community', { ...DEFAULT_PREFERENCES, quietHours: false }, night).pushAt).toEqual(night);
  });

  it('a category switched off stays out of the center; billing stays in whatever is switched off', () => {
    const off = { ...DEFAULT_PREFERENCES, communityInApp: false, billingPush: false };
    const now = kstAt('2026-12-11', 12, 0);
    expect(deliveryOf('community', off, now)).toEqual({ inApp: false, pushAt: null });
    expect(deliveryOf('billing', off, now)).toEqual({ inApp: true, pushAt: null });
  });
});

describe('community notices (docs/rules/notifications.md#N2, #N3)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ now: kstAt('2026-12-10', 12, 0).toISOString() });
  });
  afterEach(() => h.close());

  const record = (event: DomainEvent) => withTx(h.database.db, (tx) => recordEvent(tx, event, h.clock.now()));

  it('batches a creator’s new shorts: at most one notice per subscriber and creator an hour', async () => {
    const creator = await h.signUp();
    const fan = await h.signUp();
    await h.database.db
      .insert(shortSubscriptions)
      .values({ subscriberId: fan.customerId, targetId: creator.customerId });
    const published = (shortId: number): DomainEvent => ({
      type: 'shorts.published',
      customerId: creator.customerId,
      shortId,
      title: `영상 ${shortId}`,
      nickname: '크리에이터',
    });
    h.clock.set(kstAt('2026-12-10', 12, 1));
    await record(published(1));
    h.clock.set(kstAt('2026-12-10', 12, 40));
    await record(published(2));
    h.clock.set(kstAt('2026-12-10', 13, 5));
    await record(published(3));
    const notices = await noticesAfterDispatch(h, fan.customerId);
    expect(notices.map((n) => n.link)).toEqual(['/shorts/feeds?shortsId=1', '/shorts/feeds?shortsId=3']);
    expect(notices[0]?.body).toBe('크리에이터님이 새 쇼츠를 올렸어요: 영상 1');
  });

  it('a reply tells the comment’s author and the short’s owner, never the replier; a setting can mute it', async () => {
    const owner = await h.signUp();
    const author = await h.signUp();
    const replier = await h.signUp();
    await record({
      type: 'shorts.comment_added',
      customerId: replier.customerId,
      shortId: 7,
      commentId: 70,
      shortOwnerId: owner.customerId,
      parentAuthorId: author.customerId,
      nickname: '답글러',
      preview: '좋아요!',
    });
    expect((await noticesAfterDispatch(h, author.customerId)).map((n) => [n.kind, n.body, n.link])).toEqual([
      ['comment_reply', '답글러님: 좋아요!', '/shorts/feeds?shortsId=7&commentId=70'],
    ]);
    expect((await noticesAfterDispatch(h, owner.customerId)).map((n) => n.kind)).toEqual(['short_comment']);
    expect(await noticesAfterDispatch(h, replier.customerId)).toEqual([]);

    const muted = await h.app.inject({
      method: 'PUT',
      url: '/api/notifications/preferences',
      headers: bearer(owner.token),
      payload: {
        billingPush: true,
        communityInApp: false,
        communityPush: false,
        benefitInApp: true,
        benefitPush: true,
        quietHours: true,
        quietStart: '21:00',
        quietEnd: '08:00',
      },
    });
    expect(muted.json().data.communityInApp).toBe(false);
    await record({
      type: 'shorts.comment_added',
      customerId: author.customerId,
      shortId: 7,
      commentId: 71,
      shortOwnerId: owner.customerId,
      parentAuthorId: null,
      nickname: '작성자',
      preview: '두 번째',
    });
    expect((await noticesAfterDispatch(h, owner.customerId)).map((n) => n.kind)).toEqual(['short_comment']);
  });
});
