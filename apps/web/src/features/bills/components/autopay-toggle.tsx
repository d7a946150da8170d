import { AUTOPAY_MSG } from '@ohgood/contract/autopay';
import { bankName } from '@ohgood/contract/bank';
import { confirmSheet } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import { RetryButton } from '../../../shared/ui/page';
import { Switch } from '../../../shared/ui/switch';
import { useAutopay, useSetAutopay } from '../api/autopay-api';
import styles from './autopay-toggle.module.css';

/**
 * The autopay switch (docs/rules/bills-and-grades.md#B15), on /payment and /mypage. Turning it off asks first
 * in the app's sheet and says what happens instead.
 */
export default function AutopayToggle() {
  const setting = useAutopay();
  const change = useSetAutopay();
  if (setting.isPending) return <p className={styles.card}>자동 납부 설정을 불러오는 중...</p>;
  if (setting.isError) {
    return (
      <p className={styles.card}>
        자동 납부 설정을 불러오지 못했어요. <RetryButton onRetry={() => void setting.refetch()} />
      </p>
    );
  }
  const { autopay, account, accountName } = setting.data;
  const toggle = async (next: boolean) => {
    if (!next) {
      const sure = await confirmSheet({
        title: '자동 납부를 끌까요?',
        message: AUTOPAY_MSG.offConfirm,
        confirmLabel: '끄기',
        cancelLabel: '계속 사용',
        danger: true,
      });
      if (!sure) return;
    }
    change.mutate(next, {
      onSuccess: (body) => notify(body.message),
      onError: () => notify('자동 납부 설정을 바꾸지 못했어요. 다시 시도해 주세요.'),
    });
  };
  return (
    <section className={styles.card} aria-labelledby="autopay-title">
      <div className={styles.row}>
        <span>
          <strong id="autopay-title">자동 납부</strong>
          <small className={styles.hint}>
            {autopay
              ? `납부일에 ${bankName(accountName)} ${account}에서 출금해요.`
              : '꺼져 있어요. 납부일까지 직접 납부해 주세요.'}
          </small>
        </span>
        <Switch
          checked={autopay}
          labelledBy="autopay-title"
          disabled={change.isPending}
          onChange={(next) => void toggle(next)}
          testId="autopay-switch"
        />
      </div>
    </section>
  );
}
