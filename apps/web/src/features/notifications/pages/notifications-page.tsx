import { kstDate, kstStartOfDay, kstTime } from '@ohgood/contract/kst';
import type { Notice } from '@ohgood/contract/notifications';
import { Settings } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { dayLabel, groupByDay } from '../../../shared/group-by-day';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { ErrorText, ListSkeleton, Page } from '../../../shared/ui/page';
import { useMarkAllRead, useMarkRead, useNoticePages } from '../api/notifications-api';
import styles from './notifications.module.css';

/** What a screen reader hears while the list loads (the screen shows the list's shape). */
export const NOTICES_LOADING = '알림을 불러오고 있어요.';

/** '오늘', '어제', else the date with its weekday; `today` is the server's KST date. */
export function noticeDayLabel(day: string, today: string): string {
  if (day === today) return '오늘';
  if (day === kstDate(new Date(kstStartOfDay(today).getTime() - 1))) return '어제';
  return dayLabel(day);
}

/** /notifications: my notices by day, newest first; tapping one marks it read and opens what it is about. */
export default function NotificationsPage() {
  const pages = useNoticePages();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const navigate = useNavigate();
  const items = useMemo(() => pages.data?.pages.flatMap((page) => page.items) ?? [], [pages.data]);
  const groups = useMemo(() => groupByDay(items, (item) => item.createdAt), [items]);
  const unread = pages.data?.pages[0]?.unread ?? 0;
  const today = pages.data?.pages[0]?.today ?? kstDate(new Date());
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  // Infinite scroll: the next (older) page loads when the list's end comes into view.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const open = (notice: Notice) => {
    if (!notice.read) markRead.mutate(notice.id);
    navigate(notice.link);
  };
  const readAll = () =>
    markAll.mutate(undefined, {
      onSuccess: (message) => notify(message),
      onError: () => notify('모두 읽음으로 표시하지 못했어요. 다시 시도해 주세요.'),
    });

  return (
    <Page title="알림">
      <div className={styles.toolbar}>
        <button
          type="button"
          className={buttons.ghost ?? ''}
          onClick={readAll}
          disabled={unread === 0 || markAll.isPending}
        >
          모두 읽음
        </button>
        <Link to="/notifications/settings" className={styles.settings} aria-label="알림 설정">
          <Settings size={20} aria-hidden />
        </Link>
      </div>
      {pages.isPending ? (
        <ListSkeleton label={NOTICES_LOADING} />
      ) : pages.isError ? (
        <ErrorText error={pages.error} onRetry={() => void pages.refetch()} />
      ) : items.length === 0 ? (
        <p className={styles.empty}>새 알림이 없어요.</p>
      ) : (
        <>
          {groups.map((group) => (
            <section key={group.day} aria-label={noticeDayLabel(group.day, today)} className={styles.group}>
              <h2 className={styles.day}>{noticeDayLabel(group.day, today)}</h2>
              <ul className={styles.list}>
                {group.items.map((notice) => (
                  <li key={notice.id}>
                    <button
                      type="button"
                      className={styles.item}
                      data-read={notice.read}
                      data-testid="notice"
                      onClick={() => open(notice)}
                    >
                      <span className={styles.title}>
                        {!notice.read && (
                          <>
                            <span className={styles.dot} aria-hidden />
                            <span className="visually-hidden">읽지 않음</span>
                          </>
                        )}
                        {notice.title}
                      </span>
                      <span className={styles.body}>{notice.body}</span>
                      <span className={styles.time}>{kstTime(notice.createdAt)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <div ref={sentinel} />
          {hasNextPage && (
            <button
              type="button"
              className={styles.more}
              onClick={() => void fetchNextPage()}
              disabled={isFetchingNextPage}
            >
              {isFetchingNextPage ? '불러오는 중...' : '이전 알림 더 보기'}
            </button>
          )}
        </>
      )}
    </Page>
  );
}
