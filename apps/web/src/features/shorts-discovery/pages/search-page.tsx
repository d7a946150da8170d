import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../../shared/notify';
import { Page } from '../../../shared/ui/page';
import { useSearch } from '../api/discovery-api';
import styles from '../components/discovery.module.css';
import { PagedVideoGrid } from '../components/paged-video-grid';
import { RetryError } from '../components/retry-error';

/** /shorts/search?q=…: a grid of matches, 8 at a time by keyset cursor (docs/rules/shorts.md#S2). */
export default function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const results = useSearch(q);
  // A failed search alerts.
  useEffect(() => {
    if (results.isError) notify(DISCOVERY_MSG.searchFailed);
  }, [results.isError]);

  const pages = results.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const base = pages[0]?.mediaBaseUrl ?? '/media/';
  return (
    <Page title={q ? `'${q}' 검색 결과` : '쇼츠 검색'}>
      {!q && <p className={styles.empty}>{DISCOVERY_MSG.searchPrompt}</p>}
      {q && results.isError && items.length === 0 && (
        <RetryError error={results.error} onRetry={() => void results.refetch()} />
      )}
      {q && results.isPending && (
        <div className={styles.overlay} role="status">
          {DISCOVERY_MSG.searching}
        </div>
      )}
      {q && results.isSuccess && (
        <PagedVideoGrid
          base={base}
          items={items.map((i) => ({
            shortsId: i.shortsId,
            thumbnail: i.thumbnail,
            likeCount: i.likeCount,
            title: i.title,
          }))}
          paging={results}
          emptyText={DISCOVERY_MSG.searchEmpty(q)}
        />
      )}
    </Page>
  );
}
