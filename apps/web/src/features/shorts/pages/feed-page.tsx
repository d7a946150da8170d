import { LIMITS } from '@ohgood/contract/limits';
import { mediaUrl } from '@ohgood/contract/media-url';
import type { ReactionType, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { confirmUnsubscribe } from '../../../shared/confirm';
import { runWhenIdle } from '../../../shared/idle-queue';
import { notify } from '../../../shared/notify';
import { RetryButton } from '../../../shared/ui/page';
import { useStableHandlers } from '../../../shared/use-stable-handlers';
import { useFeedPages, useReact, useShort, useSubscription, useWatchToday } from '../api/shorts-api';
import { CommentPanel } from '../components/comment-panel-slot';
import styles from '../components/feed.module.css';
import { ReportSheet } from '../components/report-sheet-slot';
import { ShareDialog } from '../components/share-dialog-slot';
import { ShortSlide } from '../components/short-slide';
import type { SlideActions } from '../components/slide-details';
import { appendUnique, applyReaction, orderAroundTarget, shouldLoadMore, swipeDirection } from '../feed-logic';
import { useLoginGate } from '../hooks/use-login-gate';
import { type ConnectionHint, currentConnection, posterWarmOffsets, VIDEO_AHEAD } from '../preload-policy';
import { cachedReaction, cacheReaction, clearReactionCache } from '../reaction-cache';
import { markSwipe } from '../swipe-timing';

/** Slides kept in the DOM around the visible one: one behind, and the ones ahead whose videos may preload. */
const BEHIND = 1;
const AHEAD = VIDEO_AHEAD;
const WHEEL_LOCK_MS = 600;

interface Slide {
  key: string;
  item: ShortItem;
}

/** The feed's shorts in order: page 1 around the target short, then each later page's new ones. */
function feedItems(pages: { data: ShortItem[] }[], target: ShortItem | null): ShortItem[] {
  const [first, ...rest] = pages;
  if (!first) return [];
  return rest.reduce((items, page) => appendUnique(items, page.data), orderAroundTarget(first.data, target));
}

export default function FeedPage() {
  const [params] = useSearchParams();
  const targetId = Number(params.get('shortsId')) || null;
  const { loggedIn, gate } = useLoginGate();
  const feed = useFeedPages(targetId, LIMITS.feedPageSize);
  const target = useShort(targetId);
  // Past the last page the feed cycles from the first again: each cycle repeats the shorts under new keys.
  const [cycles, setCycles] = useState(0);
  const [index, setIndex] = useState(0);
  // The slide whose video shows frames: the next two preload only after it, so its first frame comes first.
  const [readyIndex, setReadyIndex] = useState(-1);
  const activeReady = readyIndex === index;
  // The slide the window of slides is kept around (null: only the visible one is rendered yet). It follows the
  // visible slide once that shows a frame, so a swipe mounts and unmounts no slide before the next short's
  // first frame: the slide it brings in is already laid out, and the rest waits for the browser's next idle
  // moment after that frame, with the next shorts' preloads.
  const [windowAt, setWindowAt] = useState<number | null>(null);
  const settling = useRef<(() => void) | null>(null);
  const markActiveReady = useCallback(() => {
    settling.current?.();
    settling.current = runWhenIdle(() => {
      setReadyIndex(index);
      setWindowAt(index);
    });
  }, [index]);
  // A swipe before that moment: the window waits for the next short instead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: index is the trigger
  useEffect(() => () => settling.current?.(), [index]);
  // Read after hydration: the prerendered page (Node, no connection hint) and the first client render agree.
  const [connection, setConnection] = useState<ConnectionHint>();
  useEffect(() => setConnection(currentConnection()), []);
  const [muted, setMuted] = useState(true);
  // Autoplay starts muted; until the viewer chooses, the first tap on the video turns the sound on.
  const [soundChosen, setSoundChosen] = useState(false);
  const [limitReached, setLimitReached] = useState(false);
  const [reactions, setReactions] = useState<
    Record<number, { likeCount: number; myReaction: ShortItem['myReaction'] }>
  >({});
  const [subs, setSubs] = useState<Record<number, SubscriptionStatus>>({});
  const [commentCounts, setCommentCounts] = useState<Record<number, number>>({});
  const [panel, setPanel] = useState<{ kind: 'comments' | 'share' | 'report'; item: ShortItem } | null>(null);
  const react = useReact();
  const subscription = useSubscription();
  const watchToday = useWatchToday(loggedIn);
  const touchStart = useRef<number | null>(null);
  const wheelLock = useRef(0);
  const maxIndex = useRef(0);

  // Start greyed when today's watch points are already at the cap (docs/rules/points.md#R6).
  useEffect(() => {
    if (watchToday.data && watchToday.data.todayTotalPoints >= watchToday.data.limit) setLimitReached(true);
  }, [watchToday.data]);

  // Reaction state is cached only while in the feed.
  useEffect(() => () => clearReactionCache(), []);

  // A new target is a new visit: back to its first slide.
  // biome-ignore lint/correctness/useExhaustiveDependencies: targetId is the trigger
  useEffect(() => {
    setIndex(0);
    setCycles(0);
    maxIndex.current = 0;
  }, [targetId]);

  // The feed waits for the target short too; one that cannot be read is left out (and named when gone).
  const failed = !feed.data && feed.isError && !feed.isFetching;
  const loading = (!feed.data && !failed) || (targetId !== null && target.isPending);
  // A shared link to a short that no longer exists: said so above the normal feed.
  const targetMissing = target.error instanceof ApiError && target.error.status === 404;
  const mediaBase = feed.data?.pages[0]?.mediaBaseUrl ?? '/media/';
  const base = useMemo(() => feedItems(feed.data?.pages ?? [], target.data ?? null), [feed.data, target.data]);
  const slides = useMemo<Slide[]>(
    () =>
      Array.from({ length: cycles + 1 }, (_, cycle) =>
        base.map((item) => ({ key: `${item.shortsId}-${cycle}`, item })),
      ).flat(),
    [base, cycles],
  );

  // Read through a ref so that a failed page is tried again on the next move, not in a loop.
  const pager = useRef(feed);
  pager.current = feed;
  const loadMore = useCallback(() => {
    const p = pager.current;
    if (p.isFetchingNextPage) return;
    if (!p.hasNextPage) {
      setCycles((c) => c + 1);
      return;
    }
    void p.fetchNextPage({ cancelRefetch: false }).then((result) => {
      if (result.isError) console.warn('feed page failed', result.error);
    });
  }, []);

  const go = useCallback(
    (direction: 'next' | 'prev') => {
      if (panel) return;
      markSwipe();
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

  // Posters of the slides a swipe brings into the window, warmed in the cache once the visible short plays.
  useEffect(() => {
    for (const offset of posterWarmOffsets(activeReady, AHEAD)) {
      const poster = mediaUrl(mediaBase, slides[index + offset]?.item.thumbnail);
      if (poster) new Image().src = poster;
    }
  }, [activeReady, index, slides, mediaBase]);

  useEffect(() => {
    if (!loading && !failed && shouldLoadMore(index, slides.length) && slides.length > 0) loadMore();
  }, [index, slides.length, loading, failed, loadMore]);

  // Bound in the commit that shows the slides (a layout effect), so a key pressed as soon as they appear is
  // not lost in the gap before passive effects run.
  useLayoutEffect(() => {
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

  // The slides rendered: the visible one, and the window around `windowAt` once there is one. A swipe that
  // leaves the window moves it at once, so at most 1 + BEHIND + AHEAD slides are ever in the DOM.
  const windowCentre = windowAt !== null && index >= windowAt - BEHIND && index <= windowAt + AHEAD ? windowAt : index;
  const inWindow = (i: number) =>
    i === index || (windowAt !== null && i >= windowCentre - BEHIND && i <= windowCentre + AHEAD);

  const reactionOf = (item: ShortItem) =>
    reactions[item.shortsId] ??
    cachedReaction(item.shortsId) ?? { likeCount: item.likeCount, myReaction: item.myReaction };

  const onReact = async (item: ShortItem, type: ReactionType) => {
    if (!gate()) return;
    const current = reactionOf(item);
    let next: { likeCount: number; myReaction: ShortItem['myReaction'] };
    try {
      next = await react.mutateAsync({ shortsId: item.shortsId, type });
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
        await subscription.mutateAsync({ targetId: item.customerId, subscribe: false });
        setSubs((s) => ({ ...s, [item.customerId]: 'NOT_SUBSCRIBED' }));
      } else {
        await subscription.mutateAsync({ targetId: item.customerId, subscribe: true });
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

  // Closures of this render, called through one unchanging object: a slide's details skip the feed's renders.
  const actions = useStableHandlers<SlideActions>({
    gate,
    react: (item, type) => void onReact(item, type),
    subscribe: (item) => void onSubscribe(item),
    comments: (item) => setPanel({ kind: 'comments', item }),
    share: (item) => setPanel({ kind: 'share', item }),
    report: (item) => {
      if (gate()) setPanel({ kind: 'report', item });
    },
    toggleMute: () => {
      setSoundChosen(true);
      setMuted((m) => !m);
    },
    limit: () => setLimitReached(true),
  });

  if (loading)
    return (
      <p className={styles.feedStatus} role="status">
        {SHORTS_MSG.feedLoading}
      </p>
    );
  if (failed)
    return (
      <div className={styles.feedStatus} role="alert">
        <p>{SHORTS_MSG.feedError}</p>
        <RetryButton onRetry={() => void feed.refetch()} />
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
          if (!inWindow(i)) return null;
          const { item } = slide;
          const reaction = reactionOf(item);
          return (
            <div key={slide.key} className={styles.slideFrame} style={{ top: `${i * 100}%` }}>
              <ShortSlide
                item={item}
                mediaBase={mediaBase}
                offset={i - index}
                activeReady={activeReady}
                connection={connection}
                onReady={markActiveReady}
                muted={muted}
                loggedIn={loggedIn}
                limitReached={limitReached}
                likeCount={reaction.likeCount}
                myReaction={reaction.myReaction}
                subscription={subs[item.customerId] ?? item.subscriptionStatus}
                commentCount={commentCounts[item.shortsId] ?? item.commentCount}
                unmuteOnTap={muted && !soundChosen}
                actions={actions}
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
      {panel?.kind === 'report' && (
        <ReportSheet targetType="SHORT" targetId={panel.item.shortsId} onClose={() => setPanel(null)} />
      )}
    </section>
  );
}
