import type { ReactionType, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { confirmUnsubscribe } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import { RetryButton } from '../../../shared/ui/page';
import { shortsApi } from '../api/shorts-api';
import { CommentPanel } from '../components/comment-panel';
import styles from '../components/feed.module.css';
import { ShareDialog } from '../components/share-dialog';
import { ShortSlide } from '../components/short-slide';
import { appendUnique, applyReaction, orderAroundTarget, shouldLoadMore, swipeDirection } from '../feed-logic';
import { useLoginGate } from '../hooks/use-login-gate';
import { cachedReaction, cacheReaction, clearReactionCache } from '../reaction-cache';

const PAGE_SIZE = 10;
/** Slides kept in the DOM around the visible one: one behind, two ahead (the preloaded ones). */
const BEHIND = 1;
const AHEAD = 2;
const WHEEL_LOCK_MS = 600;

interface Slide {
  key: string;
  item: ShortItem;
}

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready' };

export default function FeedPage() {
  const [params] = useSearchParams();
  const targetId = Number(params.get('shortsId')) || null;
  const { loggedIn, gate } = useLoginGate();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [slides, setSlides] = useState<Slide[]>([]);
  const [index, setIndex] = useState(0);
  // The slide whose video can play: the next two preload only after it, so its first frame comes first.
  const [readyIndex, setReadyIndex] = useState(-1);
  const activeReady = readyIndex === index;
  const markActiveReady = useCallback(() => setReadyIndex(index), [index]);
  const [mediaBase, setMediaBase] = useState('/media/');
  const [muted, setMuted] = useState(true);
  // Autoplay starts muted; until the viewer chooses, the first tap on the video turns the sound on.
  const [soundChosen, setSoundChosen] = useState(false);
  // A shared link to a short that no longer exists: said so above the normal feed (issue #14).
  const [targetMissing, setTargetMissing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [limitReached, setLimitReached] = useState(false);
  const [reactions, setReactions] = useState<
    Record<number, { likeCount: number; myReaction: ShortItem['myReaction'] }>
  >({});
  const [subs, setSubs] = useState<Record<number, SubscriptionStatus>>({});
  const [commentCounts, setCommentCounts] = useState<Record<number, number>>({});
  const [panel, setPanel] = useState<{ kind: 'comments' | 'share'; item: ShortItem } | null>(null);
  const paging = useRef({ page: 0, hasNext: true, loading: false, cycle: 0, base: [] as ShortItem[] });
  const touchStart = useRef<number | null>(null);
  const wheelLock = useRef(0);
  const maxIndex = useRef(0);

  // Start greyed when today's watch points are already at the cap (docs/rules/points.md#R6).
  useEffect(() => {
    if (!loggedIn) return;
    let cancelled = false;
    shortsApi
      .watchToday()
      .then((today) => {
        if (!cancelled && today.todayTotalPoints >= today.limit) setLimitReached(true);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [loggedIn]);

  // Reaction state is cached only while in the feed.
  useEffect(() => () => clearReactionCache(), []);

  const loadMore = useCallback(async () => {
    const p = paging.current;
    if (p.loading) return;
    p.loading = true;
    try {
      if (!p.hasNext) {
        // The end: the feed cycles from the first page again.
        p.cycle += 1;
        const cycle = p.cycle;
        setSlides((current) => [...current, ...p.base.map((item) => ({ key: `${item.shortsId}-${cycle}`, item }))]);
        return;
      }
      const next = await shortsApi.feed(p.page + 1, PAGE_SIZE);
      p.page = next.page;
      p.hasNext = next.hasNext;
      const fresh = appendUnique(p.base, next.data).slice(p.base.length);
      p.base = [...p.base, ...fresh];
      setSlides((current) => [...current, ...fresh.map((item) => ({ key: `${item.shortsId}-0`, item }))]);
    } catch (error) {
      console.warn('feed page failed', error);
    } finally {
      p.loading = false;
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the '다시 시도' trigger
  useEffect(() => {
    let cancelled = false;
    paging.current = { page: 0, hasNext: true, loading: true, cycle: 0, base: [] };
    setLoad({ state: 'loading' });
    setTargetMissing(false);
    setIndex(0);
    maxIndex.current = 0;
    (async () => {
      try {
        const [first, target] = await Promise.all([
          shortsApi.feed(1, PAGE_SIZE),
          targetId
            ? shortsApi.one(targetId).catch((error: unknown) => {
                if (error instanceof ApiError && error.status === 404) setTargetMissing(true);
                return null;
              })
            : Promise.resolve(null),
        ]);
        if (cancelled) return;
        const ordered = orderAroundTarget(first.data, target);
        paging.current = { page: 1, hasNext: first.hasNext, loading: false, cycle: 0, base: ordered };
        setMediaBase(first.mediaBaseUrl);
        setSlides(ordered.map((item) => ({ key: `${item.shortsId}-0`, item })));
        setLoad({ state: 'ready' });
      } catch {
        if (!cancelled) setLoad({ state: 'error' });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [targetId, attempt]);

  const go = useCallback(
    (direction: 'next' | 'prev') => {
      if (panel) return;
      setIndex((i) => {
        if (direction === 'prev') {
          // Going back is blocked until the viewer has moved forward.
          return maxIndex.current > 0 && i > 0 ? i - 1 : i;
        }
        const next = Math.min(i + 1, slides.length - 1);
        maxIndex.current = Math.max(maxIndex.current, next);
        return next;
      });
    },
    [panel, slides.length],
  );

  useEffect(() => {
    if (load.state === 'ready' && shouldLoadMore(index, slides.length) && slides.length > 0) void loadMore();
  }, [index, slides.length, load.state, loadMore]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA'].includes(target.tagName)) return;
      if (event.key === 'ArrowDown' || event.key === 'PageDown') {
        event.preventDefault();
        go('next');
      } else if (event.key === 'ArrowUp' || event.key === 'PageUp') {
        event.preventDefault();
        go('prev');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  const onWheel = (event: React.WheelEvent) => {
    if (Math.abs(event.deltaY) < 30 || panel) return;
    const now = event.timeStamp;
    if (now - wheelLock.current < WHEEL_LOCK_MS) return;
    wheelLock.current = now;
    go(event.deltaY > 0 ? 'next' : 'prev');
  };

  const reactionOf = (item: ShortItem) =>
    reactions[item.shortsId] ??
    cachedReaction(item.shortsId) ?? { likeCount: item.likeCount, myReaction: item.myReaction };

  const onReact = async (item: ShortItem, type: ReactionType) => {
    if (!gate()) return;
    const current = reactionOf(item);
    let next: { likeCount: number; myReaction: ShortItem['myReaction'] };
    try {
      next = await shortsApi.react(item.shortsId, type);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return;
      // On API failure the same change is applied locally.
      next = applyReaction(current, type);
    }
    cacheReaction(item.shortsId, next);
    setReactions((r) => ({ ...r, [item.shortsId]: next }));
  };

  const onSubscribe = async (item: ShortItem) => {
    if (!gate()) return;
    const current = subs[item.customerId] ?? item.subscriptionStatus;
    try {
      if (current === 'SUBSCRIBED') {
        if (!(await confirmUnsubscribe(item.nickname))) return;
        await shortsApi.unsubscribe(item.customerId);
        setSubs((s) => ({ ...s, [item.customerId]: 'NOT_SUBSCRIBED' }));
      } else {
        await shortsApi.subscribe(item.customerId);
        setSubs((s) => ({ ...s, [item.customerId]: 'SUBSCRIBED' }));
      }
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) notify(error.message);
    }
  };

  const onCountChange = useCallback(
    (count: number) => {
      if (panel) setCommentCounts((c) => ({ ...c, [panel.item.shortsId]: count }));
    },
    [panel],
  );

  if (load.state === 'loading')
    return (
      <p className={styles.feedStatus} role="status">
        {SHORTS_MSG.feedLoading}
      </p>
    );
  if (load.state === 'error')
    return (
      <div className={styles.feedStatus} role="alert">
        <p>{SHORTS_MSG.feedError}</p>
        <RetryButton onRetry={() => setAttempt((n) => n + 1)} />
      </div>
    );
  if (slides.length === 0) return <p className={styles.feedStatus}>{SHORTS_MSG.feedEmpty}</p>;

  return (
    <section
      className={styles.viewport}
      aria-label="쇼츠 피드"
      onWheel={onWheel}
      onTouchStart={(e) => {
        touchStart.current = e.touches[0]?.clientY ?? null;
      }}
      onTouchEnd={(e) => {
        const start = touchStart.current;
        const end = e.changedTouches[0]?.clientY;
        touchStart.current = null;
        if (start === null || end === undefined) return;
        const direction = swipeDirection(start, end);
        if (direction) go(direction);
      }}
    >
      {targetMissing ? (
        <p className={styles.missing} role="alert">
          요청한 쇼츠를 찾을 수 없어요. 삭제되었거나 주소가 잘못되었어요.
        </p>
      ) : null}
      <div className={styles.track} style={{ transform: `translateY(${-index * 100}%)` }}>
        {slides.map((slide, i) => {
          if (i < index - BEHIND || i > index + AHEAD) return null;
          const { item } = slide;
          return (
            <div key={slide.key} className={styles.slideFrame} style={{ top: `${i * 100}%` }}>
              <ShortSlide
                item={item}
                mediaBase={mediaBase}
                active={i === index}
                preload={activeReady && i > index && i <= index + AHEAD}
                onReady={markActiveReady}
                muted={muted}
                loggedIn={loggedIn}
                limitReached={limitReached}
                reaction={reactionOf(item)}
                subscription={subs[item.customerId] ?? item.subscriptionStatus}
                commentCount={commentCounts[item.shortsId] ?? item.commentCount}
                gate={gate}
                unmuteOnTap={muted && !soundChosen}
                onToggleMute={() => {
                  setSoundChosen(true);
                  setMuted((m) => !m);
                }}
                onReact={onReact}
                onSubscribe={onSubscribe}
                onComments={(it) => setPanel({ kind: 'comments', item: it })}
                onShare={(it) => setPanel({ kind: 'share', item: it })}
                onLimit={() => setLimitReached(true)}
              />
            </div>
          );
        })}
      </div>
      {panel?.kind === 'comments' && (
        <CommentPanel
          shortsId={panel.item.shortsId}
          mediaBase={mediaBase}
          gate={gate}
          onClose={() => setPanel(null)}
          onCountChange={onCountChange}
        />
      )}
      {panel?.kind === 'share' && <ShareDialog shortsId={panel.item.shortsId} onClose={() => setPanel(null)} />}
    </section>
  );
}
