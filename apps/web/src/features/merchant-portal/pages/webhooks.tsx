import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@ohgood/contract/webhooks';
import { type FormEvent, useState } from 'react';
import { confirmSheet } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import { useDeliveries, useWebhookActions, useWebhooks } from '../api/webhook-queries';
import styles from '../components/portal.module.css';
import { FormError, failure, kstMinute, ReadState, ShownOnce } from '../components/portal-ui';

export const EVENT_LABEL: Record<WebhookEventType | 'webhook.test', string> = {
  'payment.paid': '결제 완료',
  'payment.refunded': '환불',
  'payment.cancelled': '결제 요청 취소',
  'payment.expired': '결제 요청 만료',
  'settlement.paid': '정산 지급',
  'webhook.test': '테스트',
};

const DELIVERY_LABEL: Record<WebhookDeliveryView['status'], string> = {
  PENDING: '재시도 대기',
  SUCCEEDED: '성공',
  FAILED: '실패',
};

type Actions = ReturnType<typeof useWebhookActions>;

/** Runs a webhook action and says how it went in a toast; answers its result, or undefined when it failed. */
async function run<T>(action: () => Promise<T>, done: string): Promise<T | undefined> {
  try {
    const result = await action();
    notify(done);
    return result;
  } catch (e) {
    notify(failure(e));
    return undefined;
  }
}

/**
 * The shop's webhooks: endpoints (add one with its events — the signing secret shows once —, change events,
 * rotate the secret, send a test, delete) and the delivery log with replay.
 */
export function Webhooks() {
  const read = useWebhooks();
  const actions = useWebhookActions();
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = read.data?.items ?? [];
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">웹훅</h2>
      {secret && (
        <ShownOnce
          title="서명 비밀키"
          note="지금 한 번만 보여드려요. 받는 서버에 보관해 서명을 확인하세요."
          value={secret}
          testId="webhook-secret"
          onDone={() => setSecret(null)}
        />
      )}
      <AddEndpoint actions={actions} onSecret={setSecret} />
      <div className={styles.card}>
        <h3>엔드포인트</h3>
        <ReadState read={read} isEmpty={endpoints.length === 0} empty="등록된 엔드포인트가 없어요.">
          <ul className={`${styles.list} ${styles.form}`}>
            {endpoints.map((endpoint) => (
              <Endpoint key={endpoint.endpointId} endpoint={endpoint} actions={actions} onSecret={setSecret} />
            ))}
          </ul>
        </ReadState>
      </div>
      <Deliveries actions={actions} endpoints={endpoints} />
    </section>
  );
}

/** The events as checkboxes, in the contract's order. */
function EventChecks({
  legend,
  chosen,
  onChange,
}: {
  legend: string;
  chosen: WebhookEventType[];
  onChange: (events: WebhookEventType[]) => void;
}) {
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange(WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? on : chosen.includes(t))));
  return (
    <fieldset className={styles.checks}>
      <legend className="visually-hidden">{legend}</legend>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <label key={type} className={styles.check}>
          <input type="checkbox" checked={chosen.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
          {EVENT_LABEL[type]} <span className={styles.muted}>{type}</span>
        </label>
      ))}
    </fieldset>
  );
}

function AddEndpoint({ actions, onSecret }: { actions: Actions; onSecret: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['payment.paid', 'payment.refunded']);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!url.trim()) return setError('받을 주소(URL)를 입력해주세요.');
    if (events.length === 0) return setError('받을 이벤트를 하나 이상 골라주세요.');
    setError(null);
    try {
      const created = await actions.create.mutateAsync({ url: url.trim(), events });
      onSecret(created.secret);
      setUrl('');
      notify('엔드포인트를 등록했어요.');
    } catch (err) {
      setError(failure(err));
    }
  }
  return (
    <form className={`${styles.card} ${styles.form}`} onSubmit={(e) => void submit(e)} aria-labelledby="add-hook">
      <h3 id="add-hook">엔드포인트 추가</h3>
      <label className={styles.field}>
        받을 주소 (https://)
        <input
          className={styles.input}
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/ohgood/webhooks"
        />
      </label>
      <EventChecks legend="받을 이벤트" chosen={events} onChange={setEvents} />
      <FormError error={error} />
      <div className={styles.row}>
        <button type="submit" className={styles.primary} disabled={actions.create.isPending}>
          등록
        </button>
      </div>
    </form>
  );
}

function Endpoint({
  endpoint,
  actions,
  onSecret,
}: {
  endpoint: WebhookEndpointView;
  actions: Actions;
  onSecret: (secret: string) => void;
}) {
  const [events, setEvents] = useState(endpoint.events);
  const changed = events.join() !== endpoint.events.join();
  const id = endpoint.endpointId;
  async function save() {
    if (events.length === 0) return notify('받을 이벤트를 하나 이상 골라주세요.');
    await run(() => actions.update.mutateAsync({ endpointId: id, events }), '이벤트를 바꿨어요.');
  }
  async function rotate() {
    const ok = await confirmSheet({
      title: '서명 비밀키를 교체할까요?',
      message: '새 키가 바로 서명하고, 지금 키도 24시간 동안 함께 서명해요.',
      confirmLabel: '교체',
    });
    if (!ok) return;
    const rotated = await run(() => actions.rotate.mutateAsync(id), '비밀키를 교체했어요.');
    if (rotated) onSecret(rotated.secret);
  }
  async function remove() {
    const ok = await confirmSheet({
      title: '엔드포인트를 삭제할까요?',
      message: '보내지 않은 이벤트와 전송 기록도 함께 지워져요.',
      confirmLabel: '삭제',
      danger: true,
    });
    if (ok) await run(() => actions.remove.mutateAsync(id), '엔드포인트를 삭제했어요.');
  }
  return (
    <li aria-label={endpoint.url}>
      <p className={styles.mono}>{endpoint.url}</p>
      <p className={styles.muted}>
        등록 {kstMinute(endpoint.createdAt)}
        {endpoint.previousSecretExpiresAt && ` · 이전 비밀키는 ${kstMinute(endpoint.previousSecretExpiresAt)}까지 서명`}
      </p>
      <EventChecks legend={`${endpoint.url} 이벤트`} chosen={events} onChange={setEvents} />
      <div className={styles.row}>
        <button type="button" className={styles.primary} disabled={!changed} onClick={() => void save()}>
          이벤트 저장
        </button>
        <button
          type="button"
          className={styles.secondary}
          onClick={() => void run(() => actions.test.mutateAsync(id), '테스트 이벤트를 보냈어요.')}
        >
          테스트 전송
        </button>
        <button type="button" className={styles.secondary} onClick={() => void rotate()}>
          비밀키 교체
        </button>
        <button type="button" className={styles.danger} onClick={() => void remove()}>
          삭제
        </button>
      </div>
    </li>
  );
}

function Deliveries({ actions, endpoints }: { actions: Actions; endpoints: WebhookEndpointView[] }) {
  const read = useDeliveries();
  const items = read.data?.items ?? [];
  const urlOf = (endpointId: string) => endpoints.find((e) => e.endpointId === endpointId)?.url ?? endpointId;
  return (
    <div className={styles.card}>
      <div className={`${styles.row} ${styles.spread}`}>
        <h3>전송 기록</h3>
        <button type="button" className={styles.secondary} onClick={() => void read.refetch()}>
          새로고침
        </button>
      </div>
      <ReadState read={read} isEmpty={items.length === 0} empty="아직 보낸 이벤트가 없어요.">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">이벤트</th>
              <th scope="col">엔드포인트</th>
              <th scope="col">결과</th>
              <th scope="col">시도</th>
              <th scope="col">마지막 시도</th>
              <th scope="col">
                <span className="visually-hidden">동작</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.deliveryId}>
                <td data-label="이벤트">
                  {EVENT_LABEL[d.eventType]}
                  <span className={`${styles.muted} ${styles.mono}`}> {d.eventId}</span>
                </td>
                <td data-label="엔드포인트" className={styles.mono}>
                  {urlOf(d.endpointId)}
                </td>
                <td data-label="결과">
                  <span
                    className={`${styles.badge} ${d.status === 'SUCCEEDED' ? styles.paid : d.status === 'FAILED' ? styles.refunded : ''}`}
                  >
                    {DELIVERY_LABEL[d.status]}
                  </span>{' '}
                  {d.responseCode !== null ? `HTTP ${d.responseCode}` : (d.error ?? '')}
                  {d.durationMs !== null && <span className={styles.muted}> · {d.durationMs}ms</span>}
                </td>
                <td data-label="시도">{d.attempts}회</td>
                <td data-label="마지막 시도" className={styles.muted}>
                  {d.lastAttemptAt ? kstMinute(d.lastAttemptAt) : '—'}
                </td>
                <td>
                  <button
                    type="button"
                    className={styles.secondary}
                    aria-label={`${EVENT_LABEL[d.eventType]} ${d.eventId} 재전송`}
                    onClick={() => void run(() => actions.replay.mutateAsync(d.deliveryId), '다시 보냈어요.')}
                  >
                    재전송
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReadState>
    </div>
  );
}
