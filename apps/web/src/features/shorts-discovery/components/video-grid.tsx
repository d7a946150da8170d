import { mediaUrl } from '@ohgood/contract/media-url';
import type { VideoItem } from '@ohgood/contract/shorts-discovery';
import { Heart } from 'lucide-react';
import { Link } from 'react-router';
import { number } from '../../../shared/format';
import styles from './discovery.module.css';

export interface GridItem {
  shortsId: number;
  thumbnail: string | null;
  likeCount: number;
  title?: string;
  note?: string | null;
}

/** A liked or commented video of the shorts my page as a card; the note is its context (e.g. my comment). */
export const videoCard = (v: VideoItem): GridItem => ({
  shortsId: v.shortsId,
  thumbnail: v.thumbnailUrl,
  likeCount: v.likeCount,
  title: v.title,
  note: v.context,
});

/** Thumbnail cards with like counts; each opens the feed at that short. */
export function VideoGrid({ items, base, row }: { items: GridItem[]; base: string; row?: boolean }) {
  return (
    <ul className={row ? styles.row : styles.grid}>
      {items.map((item) => (
        <li key={item.shortsId}>
          <Link
            to={`/shorts/feeds?shortsId=${item.shortsId}`}
            className={styles.card}
            aria-label={`${item.title ?? '영상'}, 좋아요 ${number(item.likeCount)}개`}
            data-testid="video-card"
          >
            <span className={styles.thumbBox}>
              {item.thumbnail ? (
                <img src={mediaUrl(base, item.thumbnail)} alt="" loading="lazy" className={styles.thumb} />
              ) : (
                <span className={styles.thumb} />
              )}
              <span className={styles.likes}>
                <Heart size={14} aria-hidden /> {number(item.likeCount)}
              </span>
            </span>
            {item.title && <span className={styles.cardTitle}>{item.title}</span>}
            {item.note && <span className={styles.cardNote}>{item.note}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}
