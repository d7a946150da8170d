import type { NotificationPreferences } from '@ohgood/contract/notifications';
import { NOTICE_CATEGORY_LABELS, NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { RotateCw } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { ErrorText, LoadingText, Page } from '../../../shared/ui/page';
import { Switch } from '../../../shared/ui/switch';
import { enablePush, PUSH_OUTCOME_TEXT, type PushOutcome, pushSupported } from '../../../shared/web-push';
import { usePreferences, useSavePreferences } from '../api/notifications-api';
import styles from './notifications.module.css';

type Key = keyof NotificationPreferences;

/** The categories a customer may mute: each has an in-app and a push switch (push needs in-app). */
const OPTIONAL_CATEGORIES = [
  { category: 'community', inApp: 'communityInApp', push: 'communityPush' },
  { category: 'benefit', inApp: 'benefitInApp', push: 'benefitPush' },
] as const;

function SwitchRow({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className={styles.switchRow}>
      <span aria-hidden>{label}</span>
      <Switch label={label} checked={checked} onChange={onChange} disabled={disabled} />
    </div>
  );
}

/**
 * '이 기기에서 푸시 받기' and, after a try, why push is not on: a blocked permission points at the browser;
 * a failed subscription says so and offers '다시 시도'.
 */
function PushOptIn({ outcome, onTurnOn }: { outcome: PushOutcome | 'working' | null; onTurnOn: () => void }) {
  const working = outcome === 'working';
  if (outcome === 'failed') {
    return (
      <div className={styles.pushFailed} role="alert">
        <p>{PUSH_OUTCOME_TEXT.failed}</p>
        <button type="button" className={buttons.secondary} onClick={onTurnOn}>
          <RotateCw size={18} aria-hidden />
          다시 시도
        </button>
      </div>
    );
  }
  return (
    <>
      {outcome === 'denied' || outcome === 'dismissed' ? (
        <p className={styles.hint} data-testid="push-hint">
          {PUSH_OUTCOME_TEXT[outcome]}
        </p>
      ) : null}
      <button
        type="button"
        className={buttons.secondary}
        onClick={onTurnOn}
        disabled={working || outcome === 'on'}
        aria-busy={working}
      >
        {working ? '알림 켜는 중...' : outcome === 'on' ? '이 기기에서 알림을 받고 있어요' : '이 기기에서 푸시 받기'}
      </button>
    </>
  );
}

/** /notifications/settings: per category in-app and push, quiet hours, and push on this device. */
export default function NotificationSettingsPage() {
  const prefs = usePreferences();
  const save = useSavePreferences();
  const [form, setForm] = useState<NotificationPreferences | null>(null);
  useEffect(() => {
    if (prefs.data) setForm(prefs.data);
  }, [prefs.data]);
  const set = (key: Key) => (value: boolean | string) => setForm((f) => (f ? { ...f, [key]: value } : f));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    if (form.quietHours && form.quietStart === form.quietEnd) {
      notify('방해 금지 시작과 끝 시간이 같아요. 다른 시간을 골라 주세요.');
      return;
    }
    save.mutate(form, {
      onSuccess: (body) => notify(body.message),
      onError: () => notify('알림 설정을 저장하지 못했어요. 다시 시도해 주세요.'),
    });
  };
  // A browser that already blocks this site's notifications says so before any tap.
  const [push, setPush] = useState<PushOutcome | 'working' | null>(() =>
    pushSupported() && Notification.permission === 'denied' ? 'denied' : null,
  );
  const turnOnPush = async () => {
    setPush('working');
    const outcome = await enablePush();
    setPush(outcome);
    // A failure is said where its retry is (an alert); the other outcomes in a toast, the line below stays.
    if (outcome !== 'failed') notify(outcome === 'on' ? '이 기기에서 알림을 받아요.' : PUSH_OUTCOME_TEXT[outcome]);
  };

  return (
    <Page title="알림 설정">
      {prefs.isPending || !form ? (
        prefs.isError ? (
          <ErrorText error={prefs.error} onRetry={() => void prefs.refetch()} />
        ) : (
          <LoadingText />
        )
      ) : (
        <form className={styles.form} onSubmit={submit}>
          <fieldset className={styles.fieldset}>
            <legend>{NOTICE_CATEGORY_LABELS.billing}</legend>
            <p className={styles.hint}>결제·청구 알림은 알림함에 항상 보관돼요.</p>
            <SwitchRow label="푸시 알림" checked={form.billingPush} onChange={set('billingPush')} />
          </fieldset>
          {OPTIONAL_CATEGORIES.map(({ category, inApp, push }) => (
            <fieldset key={category} className={styles.fieldset}>
              <legend>{NOTICE_CATEGORY_LABELS[category]}</legend>
              <SwitchRow label="알림함" checked={form[inApp]} onChange={set(inApp)} />
              <SwitchRow
                label="푸시 알림"
                checked={form[push] && form[inApp]}
                disabled={!form[inApp]}
                onChange={set(push)}
              />
            </fieldset>
          ))}
          <fieldset className={styles.fieldset}>
            <legend>방해 금지 시간</legend>
            <p className={styles.hint}>
              이 시간에는 커뮤니티·혜택 푸시를 아침까지 미뤄요. 결제·청구 알림은 바로 보내요.
            </p>
            <SwitchRow label="방해 금지 사용" checked={form.quietHours} onChange={set('quietHours')} />
            <div className={styles.times}>
              <label>
                시작
                <input
                  type="time"
                  value={form.quietStart}
                  disabled={!form.quietHours}
                  onChange={(e) => set('quietStart')(e.target.value)}
                  required
                />
              </label>
              <label>
                끝
                <input
                  type="time"
                  value={form.quietEnd}
                  disabled={!form.quietHours}
                  onChange={(e) => set('quietEnd')(e.target.value)}
                  required
                />
              </label>
            </div>
          </fieldset>
          {pushSupported() && (
            <>
              <p className={styles.hint} id="push-devices-hint">
                푸시는 기기 {NOTIFICATION_RULES.pushDevicesMax}대까지 받을 수 있어요. 새 기기를 더하면 가장 오래된
                기기의 푸시가 꺼져요.
              </p>
              <PushOptIn outcome={push} onTurnOn={() => void turnOnPush()} />
            </>
          )}
          <button type="submit" className={buttons.primary} disabled={save.isPending}>
            {save.isPending ? '저장 중...' : '저장'}
          </button>
        </form>
      )}
    </Page>
  );
}
