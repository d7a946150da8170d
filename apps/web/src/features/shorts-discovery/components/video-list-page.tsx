import { useInfiniteQuery } from '@tanstack/react-query';
import { LoadingText, Page } from '../../../shared/ui/page';
import { discoveryApi } from '../api/discovery-api';
import { ListFooter } from './list-footer';
import { RetryError } from './retry-error';
import { VideoGrid } from './video-grid';

/** The liked and commented lists of the shorts my page: a grid over opaque keyset cursors. */
export function VideoListPage({
  list,
  title,
  emptyText,
}: {
  list: 'all' | 'comments';
  title: string;
  emptyText: string;
}) {
  const query = useInfiniteQuery({
    queryKey: ['shorts-mypage', list],
    queryFn: ({ pageParam }) => discoveryApi.videos(list, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasNext ? last.nextCursor : undefined),
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const base = query.data?.pages[0]?.mediaBaseUrl ?? '/media/';
  return (
    <Page title={title}>
      {query.isPending && <LoadingText />}
      {query.isError && items.length === 0 && <RetryError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && (
        <>
          <VideoGrid
            base={base}
            items={items.map((v) => ({
              shortsId: v.shortsId,
              thumbnail: v.thumbnailUrl,
              likeCount: v.likeCount,
              title: v.title,
              note: v.context,
            }))}
          />
          <ListFooter
            count={items.length}
            hasNext={query.hasNextPage}
            loadingMore={query.isFetchingNextPage}
            onMore={() => void query.fetchNextPage()}
            emptyText={emptyText}
          />
        </>
      )}
    </Page>
  );
}
