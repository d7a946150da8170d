import { AUTOPAY_MSG } from '@ohgood/contract/autopay';
import { bankName } from '@ohgood/contract/bank';
import { Link, useNavigate } from 'react-router';
import { confirmSheet } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { RetryButton } from '../../../shared/ui/page';
import { Switch } from '../../../shared/ui/switch';
import { useAutopay, useTurnOffAutopay } from '../api/autopay-api';
import styles from './autopay-toggle.module.css';

/** Where consent and 1원 인증 are done (from /payment and /mypage). */
export const AUTOPAY_SETUP_PATH = '/payment/autopay';

/**
 * The autopay card (docs/rules/bills-and-grades.md#B15, #B21–#B23), on /payment and /mypage. Turning it on goes
 * to the consent and 1원 인증 screen; while that is not done the card says why nothing is debited yet. Turning
 * it off asks first in the app's sheet and says what happens instead.
 */
export default function AutopayToggle() {
  const setting = useAutopay();
  const turnOff = useTurnOffAutopay();
  const navigate = useNavigate();
  if (setting.isPending) return <p className={styles.card}>자동 납부 설정을 불러오는 중...</p>;
  if (setting.isError) {
    return (
      <p className={styles.card}>
        자동 납부 설정을 불러오지 못했어요. <RetryButton onRetry={() => void setting.refetch()} />
      </p>
    );
  }
  const { autopay, account, accountName, state, pendingReason } = setting.data;
  const toggle = async (next: boolean) => {
    if (next) {
      navigate(AUTOPAY_SETUP_PATH);
      return;
    }
    const sure = await confirmSheet({
      title: '자동 납부를 끌까요?',
      message: AUTOPAY_MSG.offConfirm,
      confirmLabel: '끄기',
      cancelLabel: '계속 사용',
      danger: true,
    });
    if (!sure) return;
    turnOff.mutate(undefined, {
      onSuccess: (body) => notify(body.message),
      onError: () => notify('자동 납부 설정을 바꾸지 못했어요. 다시 시도해 주세요.'),
    });
  };
  const hint =
    state === 'on'
      ? `납부일에 ${bankName(accountName)} ${account}에서 출금해요.`
      : state === 'pending'
        ? '아직 출금하지 않아요.'
        : '꺼져 있어요. 납부일까지 직접 납부해 주세요.';
  return (
    <section className={styles.card} aria-labelledby="autopay-title" data-testid="autopay-card">
      <div className={styles.row}>
        <span>
          <strong id="autopay-title">자동 납부{state === 'pending' ? ' (대기 중)' : ''}</strong>
          <small className={styles.hint}>{hint}</small>
        </span>
        <Switch
          checked={autopay}
          labelledBy="autopay-title"
          disabled={turnOff.isPending}
          onChange={(next) => void toggle(next)}
          testId="autopay-switch"
        />
      </div>
      {state === 'pending' && pendingReason ? (
        <div className={styles.pending} role="status">
          <p>{AUTOPAY_MSG.pending[pendingReason]}</p>
          <Link className={`${buttons.primary} ${buttons.block}`} to={AUTOPAY_SETUP_PATH}>
            {pendingReason === 'consent' ? '출금 동의하고 계좌 인증하기' : '계좌 1원 인증하기'}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
