import { mediaUrl } from '@ohgood/contract/media-url';
import type { MyReaction, ReactionType, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { CircleUserRound, MessageCircle, Share2, ThumbsDown, ThumbsUp } from 'lucide-react';
import { memo } from 'react';
import { useNavigate } from 'react-router';
import { number, relativeTime } from '../../../shared/format';
import styles from './feed.module.css';
import { UploadMenu } from './upload-menu';

/** What a slide's buttons do: one object for the whole feed that never changes, so slides can skip renders. */
export interface SlideActions {
  /** Login-required actions: true when allowed (else the viewer is sent to log in). */
  gate(): boolean;
  react(item: ShortItem, type: ReactionType): void;
  subscribe(item: ShortItem): void;
  comments(item: ShortItem): void;
  share(item: ShortItem): void;
  report(item: ShortItem): void;
  toggleMute(): void;
  /** Today's watch points reached their cap. */
  limit(): void;
}

export interface SlideDetailsProps {
  item: ShortItem;
  mediaBase: string;
  likeCount: number;
  myReaction: MyReaction;
  subscription: SubscriptionStatus;
  commentCount: number;
  actions: SlideActions;
}

/**
 * A short's creator, title, text and action buttons. Memoised apart from the video: a swipe, the watch gauge's
 * tick and the video's play state re-render the slide's player, not these (a dozen icons and texts each, the
 * larger part of a slide's render on a phone).
 */
export const SlideDetails = memo(function SlideDetails(props: SlideDetailsProps) {
  const { item, mediaBase, likeCount, myReaction, subscription, commentCount, actions } = props;
  const navigate = useNavigate();
  const openProfile = () => {
    if (actions.gate()) navigate(`/shorts/profile?targetId=${item.customerId}`);
  };
  return (
    <>
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
              onClick={() => actions.subscribe(item)}
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
        <UploadMenu gate={actions.gate} />
        <button
          type="button"
          className={styles.action}
          aria-label={`좋아요 ${number(likeCount)}`}
          aria-pressed={myReaction === 'like'}
          onClick={() => actions.react(item, 'like')}
        >
          <span className={`${styles.actionIcon} ${myReaction === 'like' ? styles.on : ''}`}>
            <ThumbsUp size={24} aria-hidden />
          </span>
          <span data-testid="like-count">{number(likeCount)}</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label="싫어요"
          aria-pressed={myReaction === 'dislike'}
          onClick={() => actions.react(item, 'dislike')}
        >
          <span className={`${styles.actionIcon} ${myReaction === 'dislike' ? styles.on : ''}`}>
            <ThumbsDown size={24} aria-hidden />
          </span>
          <span>싫어요</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label={`댓글 ${number(commentCount)}`}
          onClick={() => actions.comments(item)}
        >
          <span className={styles.actionIcon}>
            <MessageCircle size={24} aria-hidden />
          </span>
          <span data-testid="comment-count">{number(commentCount)}</span>
        </button>
        <button type="button" className={styles.action} aria-label="공유" onClick={() => actions.share(item)}>
          <span className={styles.actionIcon}>
            <Share2 size={24} aria-hidden />
          </span>
          <span>공유</span>
        </button>
        {subscription !== 'SELF' && (
          <button type="button" className={styles.action} onClick={() => actions.report(item)}>
            <span className={styles.actionIcon}>
              <svg viewBox="0 0 24 24" className={styles.flag} aria-hidden>
                <path d="M5 21V4h12l-2 4.5 2 4.5H5" />
              </svg>
            </span>
            <span>신고</span>
          </button>
        )}
      </div>
    </>
  );
});
