import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { Link } from 'react-router';
import { confirmUnsubscribe } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { LoadingText, Page } from '../../../shared/ui/page';
import { useSubscription, useSubscriptions } from '../api/discovery-api';
import { Avatar } from '../components/avatar';
import styles from '../components/discovery.module.css';
import { ListFooter } from '../components/list-footer';
import { RetryError } from '../components/retry-error';

/** /shorts/mypage/subscribe: channels I subscribe to, each with an unsubscribe button. */
export default function SubscribeListPage() {
  const list = useSubscriptions();
  const subscription = useSubscription();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const base = list.data?.pages[0]?.mediaBaseUrl ?? '/media/';

  const unsubscribe = async (userId: number, displayName: string) => {
    if (!(await confirmUnsubscribe(displayName))) return;
    try {
      await subscription.mutateAsync({ targetId: userId, subscribe: false });
      notify(DISCOVERY_MSG.unsubscribed);
    } catch {
      notify(DISCOVERY_MSG.unsubscribeFailed);
    }
  };

  return (
    <Page title="구독한 사용자">
      {list.isPending && <LoadingText />}
      {list.isError && items.length === 0 && <RetryError error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && (
        <>
          <ul className={styles.list}>
            {items.map((c) => (
              <li key={c.userId} className={styles.listRow}>
                <Link to={`/shorts/profile?targetId=${c.userId}`} className={styles.channelRow}>
                  <Avatar base={base} path={c.avatarUrl} size={44} />
                  <span>{c.displayName}</span>
                </Link>
                <button
                  type="button"
                  className={buttons.ghost}
                  onClick={() => void unsubscribe(c.userId, c.displayName)}
                >
                  {DISCOVERY_MSG.unsubscribe}
                </button>
              </li>
            ))}
          </ul>
          <ListFooter
            count={items.length}
            hasNext={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            onMore={() => void list.fetchNextPage()}
            emptyText={DISCOVERY_MSG.noSubscriptions}
          />
        </>
      )}
    </Page>
  );
}
