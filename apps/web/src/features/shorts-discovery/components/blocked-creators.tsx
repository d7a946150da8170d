import type { BlockedCreator } from '@ohgood/contract/safety';
import { SAFETY_MSG } from '@ohgood/contract/safety-rules';
import { useRef } from 'react';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { ErrorText, LoadingText } from '../../../shared/ui/page';
import { useBlock, useBlockedCreators } from '../api/blocks-api';
import { Avatar } from './avatar';
import styles from './discovery.module.css';

export const BLOCKS_COPY = {
  title: '차단한 크리에이터',
  empty: '차단한 크리에이터가 없습니다.',
  unblock: '차단 해제',
} as const;

/**
 * The creators I blocked, on the shorts my page (docs/rules/shorts.md#S13), each with '차단 해제': their
 * shorts and comments come back everywhere once it is done.
 */
export function BlockedCreators({ mediaBase }: { mediaBase: string }) {
  const list = useBlockedCreators();
  const heading = useRef<HTMLHeadingElement>(null);
  const block = useBlock();

  const unblock = async (creator: BlockedCreator) => {
    try {
      await block.mutateAsync({ customerId: creator.customerId, block: false });
      notify(SAFETY_MSG.unblocked);
      // The row and its button are gone: focus stays in the section instead of falling to the page's top.
      heading.current?.focus();
    } catch (error) {
      notify(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <section className={styles.section} aria-labelledby="blocked-title">
      <div className={styles.sectionHead}>
        <h2 id="blocked-title" ref={heading} tabIndex={-1}>
          {BLOCKS_COPY.title}
        </h2>
      </div>
      {list.isPending ? (
        <LoadingText />
      ) : list.isError ? (
        <ErrorText error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className={styles.emptySmall}>{BLOCKS_COPY.empty}</p>
      ) : (
        <ul className={styles.blockedList}>
          {list.data.map((creator) => (
            <li key={creator.customerId} className={styles.blockedRow} data-testid="blocked-creator">
              <Avatar base={mediaBase} path={creator.profileImg} size={40} />
              <span className={styles.blockedName}>{creator.nickname}</span>
              <button
                type="button"
                className={buttons.ghost}
                onClick={() => void unblock(creator)}
                disabled={block.isPending}
                aria-label={`${creator.nickname} ${BLOCKS_COPY.unblock}`}
              >
                {BLOCKS_COPY.unblock}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
