import { SAFETY_MSG } from '@ohgood/contract/safety-rules';
import type { ProfileSort } from '@ohgood/contract/shorts-discovery';
import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingText, Page } from '../../../shared/ui/page';
import { useIsBlocked } from '../api/blocks-api';
import { BlockButton } from '../components/block-button';
import styles from '../components/discovery.module.css';
import { PagedVideoGrid } from '../components/paged-video-grid';
import { RetryError } from '../components/retry-error';
import { SORTS, targetIdOf, useProfileView } from '../components/use-profile-pages';

/** /shorts/profile/all?targetId=…: every short of a channel, with a sort select. */
export default function ProfileAllPage() {
  const [params] = useSearchParams();
  const [sortBy, setSortBy] = useState<ProfileSort>('latest');
  const targetId = targetIdOf(params);
  const { query, profile, items, base } = useProfileView(targetId, sortBy);
  const blocked = useIsBlocked(targetId);
  // Another creator's videos wait for my blocks, so a blocked creator's list never flashes.
  const blocksPending = targetId !== null && blocked === undefined;
  const title = profile ? `${profile.customerNickname}의 전체 영상` : '전체 영상';
  if (profile && blocked && profile.isSubscribed !== 'SELF') {
    // A creator I blocked: the same words as their channel, not an empty list.
    return (
      <Page title={title}>
        <p className={styles.blockedNote} data-testid="blocked-profile">
          {SAFETY_MSG.blockedProfile}
        </p>
        <BlockButton customerId={profile.customerId} nickname={profile.customerNickname} />
      </Page>
    );
  }
  return (
    <Page title={title}>
      <label className={styles.selectLabel}>
        <span className="visually-hidden">정렬</span>
        <select value={sortBy} onChange={(e) => setSortBy(e.target.value as ProfileSort)} className={styles.select}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {(query.isPending || blocksPending) && <LoadingText />}
      {query.isError && !profile && <RetryError error={query.error} onRetry={() => void query.refetch()} />}
      {profile && !blocksPending && (
        <PagedVideoGrid base={base} items={items} paging={query} emptyText={DISCOVERY_MSG.profileEmpty} />
      )}
    </Page>
  );
}
