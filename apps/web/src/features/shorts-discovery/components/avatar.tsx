import { mediaUrl } from '@ohgood/contract/media-url';
import { CircleUserRound } from 'lucide-react';
import styles from './discovery.module.css';

/** A round profile photo, or a neutral person icon when there is none. Decorative: names sit beside it. */
export function Avatar({ base, path, size }: { base: string; path: string | null; size: number }) {
  const src = mediaUrl(base, path);
  return src ? (
    <img src={src} alt="" width={size} height={size} className={styles.avatar} data-testid="avatar" />
  ) : (
    <CircleUserRound size={size} className={styles.avatarIcon} aria-hidden />
  );
}
