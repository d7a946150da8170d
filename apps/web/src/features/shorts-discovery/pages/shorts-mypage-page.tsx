import { LIMITS } from '@ohgood/contract/limits';
import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadingText, Page } from '../../../shared/ui/page';
import { useMyShortsOverview } from '../api/discovery-api';
import { Avatar } from '../components/avatar';
import { BlockedCreators } from '../components/blocked-creators';
import styles from '../components/discovery.module.css';
import { RetryError } from '../components/retry-error';
import { VideoGrid, videoCard } from '../components/video-grid';

/** /shorts/mypage: header, subscriptions, liked and commented videos (first 5 each), blocked creators. */
export default function ShortsMypagePage() {
  const overview = useMyShortsOverview();
  if (overview.isPending) return <LoadingText />;
  if (overview.isError) return <RetryError error={overview.error} onRetry={() => void overview.refetch()} />;
  const o = overview.data;
  const base = o.mediaBaseUrl;
  const preview = LIMITS.previewSize;
  return (
    <Page title="내 쇼츠" hideTitle>
      <header className={styles.mineHead}>
        <Avatar base={base} path={o.header.avatarUrl} size={64} />
        <div>
          <p className={styles.profileName} data-testid="my-name">
            {o.header.displayName}
          </p>
          <Link to="/shorts/profile" className={styles.more}>
            {DISCOVERY_MSG.viewChannel}
          </Link>
        </div>
      </header>

      <Section title={DISCOVERY_MSG.subscriptions} to="/shorts/mypage/subscribe" linkText={DISCOVERY_MSG.viewAll}>
        {o.subscriptions.items.length === 0 ? (
          <p className={styles.emptySmall}>{DISCOVERY_MSG.noSubscriptions}</p>
        ) : (
          <ul className={styles.channels}>
            {o.subscriptions.items.map((c) => (
              <li key={c.userId}>
                <Link to={`/shorts/profile?targetId=${c.userId}`} className={styles.channel}>
                  <Avatar base={base} path={c.avatarUrl} size={56} />
                  <span>{c.displayName}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={DISCOVERY_MSG.likedVideos} to="/shorts/mypage/all" linkText={DISCOVERY_MSG.viewAll}>
        {o.likedVideos.items.length === 0 ? (
          <p className={styles.emptySmall}>{DISCOVERY_MSG.noLikes}</p>
        ) : (
          <VideoGrid row base={base} items={o.likedVideos.items.slice(0, preview).map(videoCard)} />
        )}
      </Section>

      <Section title={DISCOVERY_MSG.commentedVideos} to="/shorts/mypage/comments" linkText={DISCOVERY_MSG.viewAll}>
        {o.commentedVideos.items.length === 0 ? (
          <p className={styles.emptySmall}>{DISCOVERY_MSG.noComments}</p>
        ) : (
          <VideoGrid row base={base} items={o.commentedVideos.items.slice(0, preview).map(videoCard)} />
        )}
      </Section>

      <BlockedCreators mediaBase={base} />
    </Page>
  );
}

function Section({
  title,
  to,
  linkText,
  children,
}: {
  title: string;
  to: string;
  linkText: string;
  children: ReactNode;
}) {
  return (
    <section className={styles.section} aria-label={title}>
      <div className={styles.sectionHead}>
        <h2>{title}</h2>
        <Link to={to} className={styles.more} aria-label={`${title} ${linkText}`}>
          {linkText}
        </Link>
      </div>
      {children}
    </section>
  );
}
