import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import styles from './discovery.module.css';
import { useScrollTrigger } from './use-scroll-trigger';

interface Props {
  count: number;
  hasNext: boolean;
  loadingMore: boolean;
  onMore: () => void;
  emptyText: string;
}

/** The infinite-scroll messages: empty, loading more, all loaded, scroll for more. */
export function ListFooter({ count, hasNext, loadingMore, onMore, emptyText }: Props) {
  const sentinel = useScrollTrigger(() => {
    if (hasNext && !loadingMore) onMore();
  }, hasNext);
  let text: string = DISCOVERY_MSG.listScrollMore;
  if (count === 0 && !hasNext) text = emptyText;
  else if (loadingMore) text = DISCOVERY_MSG.listLoadingMore;
  else if (!hasNext) text = DISCOVERY_MSG.listAllLoaded;
  return (
    <div ref={sentinel} className={count === 0 && !hasNext ? styles.empty : styles.listFooter} role="status">
      {text}
    </div>
  );
}
