import { SAFETY_MSG } from '@ohgood/contract/safety-rules';
import { ApiError } from '../../../shared/api-client';
import { confirmSheet } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { useBlock, useBlockedCreators } from '../api/blocks-api';

/**
 * '차단하기' on a creator's channel (docs/rules/shorts.md#S13): after a confirm, their shorts and comments
 * disappear for me everywhere, so every list of shorts is read again. A creator I blocked offers '차단 해제'.
 */
export function BlockButton({ customerId, nickname }: { customerId: number; nickname: string }) {
  const block = useBlock();
  const blocked = useBlockedCreators().data?.some((creator) => creator.customerId === customerId) ?? false;
  const onClick = async () => {
    if (!blocked) {
      const ok = await confirmSheet({
        title: `${nickname}님을 차단할까요?`,
        message: '이 크리에이터의 쇼츠와 댓글이 더 이상 보이지 않아요. 쇼츠 마이페이지에서 해제할 수 있어요.',
        confirmLabel: '차단하기',
        danger: true,
      });
      if (!ok) return;
    }
    try {
      await block.mutateAsync({ customerId, block: !blocked });
      notify(blocked ? SAFETY_MSG.unblocked : SAFETY_MSG.blocked);
    } catch (error) {
      notify(error instanceof ApiError ? error.message : String(error));
    }
  };
  return (
    <button type="button" className={buttons.ghost} onClick={() => void onClick()} disabled={block.isPending}>
      {blocked ? '차단 해제' : '차단하기'}
    </button>
  );
}
