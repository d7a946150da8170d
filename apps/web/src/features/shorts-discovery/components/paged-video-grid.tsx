import { ListFooter } from './list-footer';
import { type GridItem, VideoGrid } from './video-grid';

/** What an infinite query tells the list's footer. */
export interface Paging {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** A discovery grid that grows by scrolling: the cards, then the footer (empty, loading more, all loaded). */
export function PagedVideoGrid({
  base,
  items,
  paging,
  emptyText,
}: {
  base: string;
  items: GridItem[];
  paging: Paging;
  emptyText: string;
}) {
  return (
    <>
      <VideoGrid base={base} items={items} />
      <ListFooter
        count={items.length}
        hasNext={paging.hasNextPage}
        loadingMore={paging.isFetchingNextPage}
        onMore={() => void paging.fetchNextPage()}
        emptyText={emptyText}
      />
    </>
  );
}
