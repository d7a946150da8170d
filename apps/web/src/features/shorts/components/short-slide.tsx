import { mediaUrl } from '@ohgood/contract/media-url';
import type { MyReaction, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
import { useWatchGauge } from '../hooks/use-watch-gauge';
import { type ConnectionHint, slideMedia } from '../preload-policy';
import { watchActiveShort } from '../swipe-timing';
import styles from './feed.module.css';
import { type SlideActions, SlideDetails } from './slide-details';
import { WatchGauge } from './watch-gauge';

export const CONTROLS_HIDE_MS = 3000;

export interface SlideProps {
  item: ShortItem;
  mediaBase: string;
  /** Places from the visible slide (0: the visible one, the only one that plays; negative: behind it). */
  offset: number;
  /** The visible short shows frames: the others may now take bandwidth (preload-policy.ts). */
  activeReady: boolean;
  connection?: ConnectionHint;
  /**
   * The visible short showed its first frame, or will not play by itself (autoplay refused, a broken file): the
   * feed may now load the next ones and move its window.
   */
  onReady?: () => void;
  muted: boolean;
  /** The first tap on the video turns the sound on instead of pausing (autoplay starts muted). */
  unmuteOnTap: boolean;
  loggedIn: boolean;
  limitReached: boolean;
  likeCount: number;
  myReaction: MyReaction;
  subscription: SubscriptionStatus;
  commentCount: number;
  actions: SlideActions;
}

export const ShortSlide = memo(function ShortSlide(props: SlideProps) {
  const { item, mediaBase, offset, muted, loggedIn, limitReached, subscription, actions, onReady } = props;
  const active = offset === 0;
  const video = useRef<HTMLVideoElement>(null);
  // What this element already fetched it keeps (set during render, so the first commit carries it).
  const [had, setHad] = useState({ sourced: false, postered: false });
  const media = slideMedia(offset, props.activeReady, had, props.connection);
  if (media.source !== had.sourced || media.poster !== had.postered)
    setHad({ sourced: media.source, postered: media.poster });
  const [playing, setPlaying] = useState(false);
  const [paused, setPaused] = useState(false);
  const [controls, setControls] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const gauge = useWatchGauge({
    shortsId: item.shortsId,
    durationSeconds: item.durationSeconds,
    active,
    playing,
    loggedIn,
    limitReached,
    onLimit: actions.limit,
  });

  const flashControls = () => {
    setControls(true);
    if (hideTimer.current) clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setControls(false), CONTROLS_HIDE_MS);
  };

  // Only the visible video plays; leaving a slide pauses and rewinds it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: flashControls is stable in effect; onReady is read when play is refused
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (active) {
      setPaused(false);
      flashControls();
      el.play().catch(() => {
        setPaused(true);
        onReady?.();
      });
    } else {
      el.pause();
      el.currentTime = 0;
    }
  }, [active]);

  // The visible short's first frame after a swipe, and its stalls, as performance entries; the frame also tells
  // the feed it is ready.
  useEffect(() => {
    const el = video.current;
    if (active && el) return watchActiveShort(el, item.shortsId, onReady);
  }, [active, item.shortsId, onReady]);

  // Release the decoder and buffers when the slide leaves the window, so memory stays flat.
  useEffect(() => {
    const el = video.current;
    return () => {
      if (hideTimer.current) clearTimeout(hideTimer.current);
      if (el) {
        el.pause();
        el.removeAttribute('src');
        el.load();
      }
    };
  }, []);

  const togglePlay = () => {
    const el = video.current;
    if (!el || !active) return;
    if (props.unmuteOnTap && !el.paused) {
      actions.toggleMute();
      flashControls();
      return;
    }
    if (el.paused) {
      setPaused(false);
      el.play().catch(() => setPaused(true));
    } else {
      el.pause();
      setPaused(true);
    }
    flashControls();
  };

  return (
    <article className={styles.slide} aria-label={item.title} data-testid="short-slide" data-shorts-id={item.shortsId}>
      <video
        ref={video}
        className={styles.video}
        src={media.source ? mediaUrl(mediaBase, item.videoName) : undefined}
        poster={media.poster ? mediaUrl(mediaBase, item.thumbnail) : undefined}
        preload={media.preload}
        muted={muted}
        loop
        playsInline
        onPlaying={() => setPlaying(true)}
        onError={active ? onReady : undefined}
        onPause={() => setPlaying(false)}
        onWaiting={() => setPlaying(false)}
        data-testid={active ? 'active-video' : undefined}
      />
      <button
        type="button"
        className={styles.tapLayer}
        onClick={togglePlay}
        aria-label={props.unmuteOnTap && !paused ? '탭하여 소리 켜기' : paused ? '재생' : '일시정지'}
      />
      <div className={`${styles.controls} ${controls ? '' : styles.controlsHidden}`} data-testid="controls">
        <span className={styles.playState} aria-hidden>
          {paused ? <Play size={36} /> : <Pause size={36} />}
        </span>
      </div>
      {/* Outside the fading controls: sound stays one tap away. */}
      <button
        type="button"
        className={styles.muteButton}
        onClick={() => {
          actions.toggleMute();
          flashControls();
        }}
        aria-label={muted ? '소리 켜기' : '음소거'}
      >
        {muted ? <VolumeX size={20} aria-hidden /> : <Volume2 size={20} aria-hidden />}
      </button>

      <div className={styles.gaugeSpot}>
        <WatchGauge gauge={gauge} loggedIn={loggedIn} limitReached={limitReached} />
      </div>

      <SlideDetails
        item={item}
        mediaBase={mediaBase}
        likeCount={props.likeCount}
        myReaction={props.myReaction}
        subscription={subscription}
        commentCount={props.commentCount}
        actions={actions}
      />
    </article>
  );
});
