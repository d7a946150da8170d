import { mediaUrl } from '@ohgood/contract/media-url';
import type { MyReaction, ReactionType, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import {
  CircleUserRound,
  MessageCircle,
  Pause,
  Play,
  Share2,
  ThumbsDown,
  ThumbsUp,
  Volume2,
  VolumeX,
} from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { number, relativeTime } from '../../../shared/format';
import { useWatchGauge } from '../hooks/use-watch-gauge';
import { type ConnectionHint, slideMedia } from '../preload-policy';
import { watchActiveShort } from '../swipe-timing';
import styles from './feed.module.css';
import { UploadMenu } from './upload-menu';
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
  /** The visible video can play through: the next ones may now take bandwidth. */
  onReady?: () => void;
  muted: boolean;
  /** The first tap on the video turns the sound on instead of pausing (autoplay starts muted). */
  unmuteOnTap: boolean;
  loggedIn: boolean;
  limitReached: boolean;
  reaction: { likeCount: number; myReaction: MyReaction };
  subscription: SubscriptionStatus;
  commentCount: number;
  gate(): boolean;
  onToggleMute(): void;
  onReact(item: ShortItem, type: ReactionType): void;
  onSubscribe(item: ShortItem): void;
  onComments(item: ShortItem): void;
  onShare(item: ShortItem): void;
  onReport(item: ShortItem): void;
  onLimit(): void;
}

export const ShortSlide = memo(function ShortSlide(props: SlideProps) {
  const { item, mediaBase, offset, muted, loggedIn, limitReached, reaction, subscription } = props;
  const active = offset === 0;
  const video = useRef<HTMLVideoElement>(null);
  // What this element already fetched it keeps (set during render, so the first commit carries it).
  const [had, setHad] = useState({ sourced: false, postered: false });
  const media = slideMedia(offset, props.activeReady, had, props.connection);
  if (media.source !== had.sourced || media.poster !== had.postered)
    setHad({ sourced: media.source, postered: media.poster });
  const navigate = useNavigate();
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
    onLimit: props.onLimit,
  });

  const flashControls = () => {
    setControls(true);
    if (hideTimer.current) clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setControls(false), CONTROLS_HIDE_MS);
  };

  // Only the visible video plays; leaving a slide pauses and rewinds it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: flashControls is stable in effect
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (active) {
      setPaused(false);
      flashControls();
      el.play().catch(() => setPaused(true));
    } else {
      el.pause();
      el.currentTime = 0;
    }
  }, [active]);

  // The visible short's first frame after a swipe, and its stalls, as performance entries.
  useEffect(() => {
    const el = video.current;
    if (active && el) return watchActiveShort(el, item.shortsId);
  }, [active, item.shortsId]);

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
      props.onToggleMute();
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

  const openProfile = () => {
    if (props.gate()) navigate(`/shorts/profile?targetId=${item.customerId}`);
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
        onPlaying={() => {
          setPlaying(true);
          if (active) props.onReady?.();
        }}
        onCanPlayThrough={active ? props.onReady : undefined}
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
          props.onToggleMute();
          flashControls();
        }}
        aria-label={muted ? '소리 켜기' : '음소거'}
      >
        {muted ? <VolumeX size={20} aria-hidden /> : <Volume2 size={20} aria-hidden />}
      </button>

      <div className={styles.gaugeSpot}>
        <WatchGauge gauge={gauge} loggedIn={loggedIn} limitReached={limitReached} />
      </div>

      <div className={styles.info}>
        <div className={styles.creator}>
          <button
            type="button"
            className={styles.avatarButton}
            onClick={openProfile}
            aria-label={`${item.nickname} 프로필`}
          >
            {item.profileImg ? (
              <img src={mediaUrl(mediaBase, item.profileImg)} alt="" className={styles.avatar} />
            ) : (
              <CircleUserRound className={styles.avatar} aria-hidden />
            )}
          </button>
          <button type="button" className={styles.nickname} onClick={openProfile}>
            {item.nickname}
          </button>
          {subscription !== 'SELF' && (
            <button
              type="button"
              className={subscription === 'SUBSCRIBED' ? styles.subscribed : styles.subscribe}
              onClick={() => props.onSubscribe(item)}
            >
              {subscription === 'SUBSCRIBED' ? '구독중' : '구독'}
            </button>
          )}
        </div>
        <h2 className={styles.title}>{item.title}</h2>
        <p className={styles.description}>{item.content}</p>
        <time className={styles.time} dateTime={item.date}>
          {relativeTime(item.date)}
        </time>
      </div>

      <div className={styles.actions}>
        <UploadMenu gate={props.gate} />
        <button
          type="button"
          className={styles.action}
          aria-label={`좋아요 ${number(reaction.likeCount)}`}
          aria-pressed={reaction.myReaction === 'like'}
          onClick={() => props.onReact(item, 'like')}
        >
          <span className={`${styles.actionIcon} ${reaction.myReaction === 'like' ? styles.on : ''}`}>
            <ThumbsUp size={24} aria-hidden />
          </span>
          <span data-testid="like-count">{number(reaction.likeCount)}</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label="싫어요"
          aria-pressed={reaction.myReaction === 'dislike'}
          onClick={() => props.onReact(item, 'dislike')}
        >
          <span className={`${styles.actionIcon} ${reaction.myReaction === 'dislike' ? styles.on : ''}`}>
            <ThumbsDown size={24} aria-hidden />
          </span>
          <span>싫어요</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label={`댓글 ${number(props.commentCount)}`}
          onClick={() => props.onComments(item)}
        >
          <span className={styles.actionIcon}>
            <MessageCircle size={24} aria-hidden />
          </span>
          <span data-testid="comment-count">{number(props.commentCount)}</span>
        </button>
        <button type="button" className={styles.action} aria-label="공유" onClick={() => props.onShare(item)}>
          <span className={styles.actionIcon}>
            <Share2 size={24} aria-hidden />
          </span>
          <span>공유</span>
        </button>
        {subscription !== 'SELF' && (
          <button type="button" className={styles.action} onClick={() => props.onReport(item)}>
            <span className={styles.actionIcon}>
              <svg viewBox="0 0 24 24" className={styles.flag} aria-hidden>
                <path d="M5 21V4h12l-2 4.5 2 4.5H5" />
              </svg>
            </span>
            <span>신고</span>
          </button>
        )}
      </div>
    </article>
  );
});
