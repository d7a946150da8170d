import { LoadingText, Page } from '../../../shared/ui/page';
import { useMyVideos, type VideoList } from '../api/discovery-api';
import { PagedVideoGrid } from './paged-video-grid';
import { RetryError } from './retry-error';
import { videoCard } from './video-grid';

/** The liked and commented lists of the shorts my page: a grid over opaque keyset cursors. */
export function VideoListPage({ list, title, emptyText }: { list: VideoList; title: string; emptyText: string }) {
  const query = useMyVideos(list);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const base = query.data?.pages[0]?.mediaBaseUrl ?? '/media/';
  return (
    <Page title={title}>
      {query.isPending && <LoadingText />}
      {query.isError && items.length === 0 && <RetryError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && (
        <PagedVideoGrid base={base} items={items.map(videoCard)} paging={query} emptyText={emptyText} />
      )}
    </Page>
  );
}
