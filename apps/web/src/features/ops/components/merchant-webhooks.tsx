import type { WebhookEndpointHealth } from '@ohgood/contract/webhooks';
import { useQuery } from '@tanstack/react-query';
import { merchantReads } from '../api/queries';
import { minute, Status } from './console-ui';
import styles from './ops-console.module.css';

const DELIVERY_STATUS: Record<string, string> = { PENDING: '재시도 대기', SUCCEEDED: '성공', FAILED: '실패(중단)' };

/** A wait in seconds as the largest whole unit: 45초, 3분, 2시간, 4일. */
export function waited(seconds: number): string {
  if (seconds < 60) return `${seconds}초`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}분`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}시간`;
  return `${Math.floor(seconds / 86_400)}일`;
}

/** The last 24 hours' success share, or a dash when nothing was tried. */
function successShare(e: WebhookEndpointHealth): string {
  if (e.tried24h === 0) return '시도 없음';
  return `${Math.round((e.succeeded24h / e.tried24h) * 100)}% (${e.succeeded24h}/${e.tried24h})`;
}

function lastDelivery(e: WebhookEndpointHealth): string {
  const last = e.lastDelivery;
  if (!last) return '아직 없음';
  const code = last.responseCode === null ? '응답 없음' : `HTTP ${last.responseCode}`;
  return `${minute(last.at)} · ${DELIVERY_STATUS[last.status] ?? last.status} · ${code}`;
}

/**
 * A merchant's webhook health (docs/rules/webhooks.md#W10): per endpoint its masked address and events, the
 * latest attempt, what waits and what is failing now, the oldest wait and the last day's success share.
 */
export function MerchantWebhooks({ merchantId }: { merchantId: number }) {
  const health = useQuery(merchantReads.webhooks(merchantId));
  const endpoints = health.data?.endpoints;
  return (
    <section className={styles.card} aria-labelledby="merchant-webhooks-title">
      <h3 id="merchant-webhooks-title">웹훅 상태</h3>
      <Status read={health} />
      {endpoints?.length === 0 && <p className={styles.muted}>등록된 웹훅 엔드포인트가 없습니다.</p>}
      {endpoints?.map((e) => {
        const trouble = e.failing > 0 || e.failed24h > 0;
        return (
          <article key={e.endpointId} className={styles.webhookEndpoint} aria-label={`웹훅 ${e.url}`}>
            <p>
              <strong className={styles.secret}>{e.url}</strong>{' '}
              {trouble ? <span className={styles.tagDanger}>실패 있음</span> : <span>정상</span>}
            </p>
            <dl className={styles.split}>
              <div>
                <dt>이벤트</dt>
                <dd>{e.events.join(', ')}</dd>
              </div>
              <div>
                <dt>최근 전송</dt>
                <dd>{lastDelivery(e)}</dd>
              </div>
              <div>
                <dt>대기 · 실패 중</dt>
                <dd>
                  대기 {e.pending}건 · 실패 후 재시도 {e.failing}건
                  {e.oldestPendingSeconds !== null && ` · 가장 오래 ${waited(e.oldestPendingSeconds)} 대기`}
                </dd>
              </div>
              <div>
                <dt>24시간 성공률</dt>
                <dd>
                  {successShare(e)}
                  {e.failed24h > 0 && ` · 전송 포기 ${e.failed24h}건`}
                </dd>
              </div>
            </dl>
          </article>
        );
      })}
    </section>
  );
}
