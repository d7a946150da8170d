import { SAFETY_MSG } from '@ohgood/contract/safety-rules';
import type { Profile, ProfileSort } from '@ohgood/contract/shorts-discovery';
import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { confirmUnsubscribe } from '../../../shared/confirm';
import { number } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { LoadingText } from '../../../shared/ui/page';
import pageStyles from '../../../shared/ui/page.module.css';
import { useIsBlocked } from '../api/blocks-api';
import { useSubscription } from '../api/discovery-api';
import { Avatar } from '../components/avatar';
import { BlockButton } from '../components/block-button';
import styles from '../components/discovery.module.css';
import { PagedVideoGrid } from '../components/paged-video-grid';
import { RetryError } from '../components/retry-error';
import { SORTS, targetIdOf, useProfileView } from '../components/use-profile-pages';

/** /shorts/profile?targetId=…: a channel (own without targetId), docs/rules/shorts.md#S8. */
export default function ProfilePage() {
  const [params] = useSearchParams();
  const targetId = targetIdOf(params);
  const [sortBy, setSortBy] = useState<ProfileSort>('latest');
  const { query, profile, items, base } = useProfileView(targetId, sortBy);
  // Another creator's channel waits for my blocks too: a blocked one never flashes its subscribe button.
  const blocked = useIsBlocked(targetId);

  if ((query.isPending && !profile) || (targetId !== null && blocked === undefined)) return <LoadingText />;
  if (query.isError && !profile) return <RetryError error={query.error} onRetry={() => void query.refetch()} />;
  if (!profile) return null;
  // A creator I blocked (docs/rules/shorts.md#S13): who they are and why nothing else shows, with 차단 해제;
  // no counts (their videos are hidden from me, so '동영상 0' would be untrue), no 구독, no empty feed.
  const hidden = blocked === true && profile.isSubscribed !== 'SELF';
  return (
    <section className={pageStyles.page} aria-labelledby="profile-name">
      <header className={styles.profileHead}>
        <Avatar base={base} path={profile.profileImg} size={88} />
        <h1 id="profile-name" className={styles.profileName}>
          {profile.customerNickname}
        </h1>
        {hidden ? (
          <p className={styles.blockedNote} data-testid="blocked-profile">
            {SAFETY_MSG.blockedProfile}
          </p>
        ) : (
          <>
            {profile.introduce && <p className={styles.introduce}>{profile.introduce}</p>}
            <dl className={styles.counts}>
              <div>
                <dt>{DISCOVERY_MSG.subscribers}</dt>
                <dd data-testid="subscriber-count">{number(profile.subscriberCount)}</dd>
              </div>
              <div>
                <dt>{DISCOVERY_MSG.videos}</dt>
                <dd>{number(profile.videoCount)}</dd>
              </div>
            </dl>
            <ProfileAction profile={profile} />
          </>
        )}
        {profile.isSubscribed !== 'SELF' && (
          <BlockButton customerId={profile.customerId} nickname={profile.customerNickname} />
        )}
      </header>
      {hidden ? null : (
        <>
          <fieldset className={styles.sortBar}>
            <legend className="visually-hidden">정렬</legend>
            {SORTS.map((s) => (
              <button
                key={s.value}
                type="button"
                aria-pressed={sortBy === s.value}
                className={sortBy === s.value ? styles.sortOn : styles.sort}
                onClick={() => setSortBy(s.value)}
              >
                {s.label}
              </button>
            ))}
            <Link className={styles.more} to={`/shorts/profile/all?targetId=${profile.customerId}`}>
              {DISCOVERY_MSG.viewAll}
            </Link>
          </fieldset>
          <PagedVideoGrid base={base} items={items} paging={query} emptyText={DISCOVERY_MSG.profileEmpty} />
        </>
      )}
    </section>
  );
}

/** SELF → edit; SUBSCRIBED → unsubscribe; NOT_SUBSCRIBED → subscribe; then the profile is fetched again. */
function ProfileAction({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const subscription = useSubscription();
  const [busy, setBusy] = useState(false);
  if (profile.isSubscribed === 'SELF') {
    return (
      <button
        type="button"
        className={buttons.ghost}
        onClick={() => navigate('/shorts/profile/edit', { state: { profile } })}
      >
        {DISCOVERY_MSG.editProfile}
      </button>
    );
  }
  const subscribed = profile.isSubscribed === 'SUBSCRIBED';
  const toggle = async () => {
    if (subscribed && !(await confirmUnsubscribe(profile.customerNickname))) return;
    setBusy(true);
    try {
      await subscription.mutateAsync({ targetId: profile.customerId, subscribe: !subscribed });
      if (subscribed) notify(DISCOVERY_MSG.unsubscribed);
    } catch (error) {
      if (subscribed) notify(DISCOVERY_MSG.unsubscribeFailed);
      else notify(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={subscribed ? buttons.ghost : buttons.primary}
      onClick={() => void toggle()}
      disabled={busy}
    >
      {subscribed ? DISCOVERY_MSG.unsubscribe : DISCOVERY_MSG.subscribe}
    </button>
  );
}
