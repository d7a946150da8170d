import type { ModerationCase } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { BLOCK_AND_REPORT, REPORT_REASON_LABELS } from '@ohgood/contract/safety-rules';
import { useState } from 'react';
import { opsChanges } from '../api/keys';
import { type Queue, useConsoleAction, useModerationQueue } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** The short in the customer app's feed (the console is served from the same origin). */
const shortLink = (shortsId: number) => `/shorts/feeds?shortsId=${shortsId}`;
const QUEUES: Array<{ id: Queue; label: string }> = [
  { id: 'OPEN', label: '검토 대기' },
  { id: 'HIDDEN', label: '숨김' },
  { id: 'CLOSED', label: '종결' },
];

/**
 * The moderation queue: reported shorts and comments with their reasons and counts, the content inline (the
 * video plays), and hide / restore / dismiss, a strike or an upload ban for the creator — each with a reason
 * and a confirmation.
 */
export function Moderation() {
  const [state, setState] = useState<Queue>('OPEN');
  const queue = useModerationQueue(state);
  return (
    <section className={styles.card} aria-labelledby="moderation-title">
      <h2 id="moderation-title">신고 검토</h2>
      <fieldset className={styles.actions}>
        <legend>대기열</legend>
        {QUEUES.map((q) => (
          <button
            key={q.id}
            type="button"
            className={state === q.id ? styles.button : styles.secondary}
            aria-pressed={state === q.id}
            onClick={() => setState(q.id)}
          >
            {q.label}
          </button>
        ))}
      </fieldset>
      <Status read={queue} />
      {queue.data?.items.length === 0 && <p>검토할 신고가 없습니다.</p>}
      {queue.data?.items.map((item) => (
        <CaseCard key={item.caseId} item={item} mediaBaseUrl={queue.data?.mediaBaseUrl ?? '/media/'} />
      ))}
    </section>
  );
}

/** The creator's case actions; each refetches the queues, today's figures and the creator's page. */
function useCaseAction<V>(creatorId: number, run: (vars: V) => Promise<unknown>) {
  return useConsoleAction(run, () => opsChanges.moderation(creatorId));
}

function CaseCard({ item, mediaBaseUrl }: { item: ModerationCase; mediaBaseUrl: string }) {
  const decision = useCaseAction(item.creatorId, (body: { action: 'HIDE' | 'RESTORE' | 'DISMISS'; reason: string }) =>
    callOps(api.decide, { params: { caseId: item.caseId }, body }),
  );
  const strike = useCaseAction(item.creatorId, (reason: string) =>
    callOps(api.strike, { params: { customerId: item.creatorId }, body: { reason } }),
  );
  const decide = (action: 'HIDE' | 'RESTORE' | 'DISMISS') => (reason: string) => decision({ action, reason });
  const isShort = item.targetType === 'SHORT';
  const kind = isShort ? '쇼츠' : '댓글';
  const shortName = item.shortTitle ? `‘${item.shortTitle}’` : `#${item.shortsId}`;
  return (
    <article
      className={styles.card}
      aria-label={`신고 ${item.caseId}: ${isShort ? item.title : `${shortName}에 달린 댓글`}`}
    >
      <div className={styles.row}>
        {item.videoPath && (
          // biome-ignore lint/a11y/useMediaCaption: user videos carry no caption track
          <video className={styles.video} src={`${mediaBaseUrl}${item.videoPath}`} controls preload="metadata" />
        )}
        <div>
          {isShort ? (
            <h3>
              {kind}: {item.title}
            </h3>
          ) : (
            // A comment reads in its short's context: the short opens in the customer app, in a new tab.
            <h3>
              쇼츠{' '}
              <a href={shortLink(item.shortsId)} target="_blank" rel="noreferrer">
                {shortName}
                <span className="visually-hidden"> (새 창)</span>
              </a>
              에 달린 댓글
            </h3>
          )}
          {item.body && <p>{item.body}</p>}
          <p>
            신고 {item.reportCount}건 ·{' '}
            {item.reasons.map((r) => `${REPORT_REASON_LABELS[r.reason]} ${r.count}`).join(', ')}
            {item.autoHidden ? ' · 자동 숨김됨' : ''}
          </p>
          {item.texts.length > 0 && (
            <ul>
              {item.texts.map((text, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: reporters' texts may repeat
                <li key={i}>“{text}”</li>
              ))}
            </ul>
          )}
          <p className={styles.muted}>
            크리에이터 {item.creatorNickname} (#{item.creatorId}, 경고 {item.creatorStrikes}회) · 접수{' '}
            {item.openedAt.slice(0, 16).replace('T', ' ')}
          </p>
          <div className={styles.row}>
            {/* A case hidden by the report threshold waits for review: hiding it confirms it. */}
            {(item.state !== 'HIDDEN' || item.autoHidden) && (
              <ActionButton label="숨김" title={`${kind} 숨김`} variant="danger" run={decide('HIDE')} />
            )}
            {item.state === 'HIDDEN' && <ActionButton label="복구" title={`${kind} 복구`} run={decide('RESTORE')} />}
            {item.state === 'OPEN' && <ActionButton label="기각" title="신고 기각" run={decide('DISMISS')} />}
            <ActionButton label="경고" title={`${item.creatorNickname}에게 경고`} run={strike} />
            <UploadBan creatorId={item.creatorId} nickname={item.creatorNickname} />
          </div>
        </div>
      </div>
    </article>
  );
}

function UploadBan({ creatorId, nickname }: { creatorId: number; nickname: string }) {
  const [days, setDays] = useState('7');
  const ban = useCaseAction(creatorId, (body: { days: number; reason: string }) =>
    callOps(api.uploadBan, { params: { customerId: creatorId }, body }),
  );
  const n = Number(days);
  return (
    <ActionButton
      label="업로드 금지"
      title={`${nickname} 업로드 금지`}
      fields={
        <label className={styles.field}>
          기간 (일, 1~{BLOCK_AND_REPORT.maxBanDays})
          <input
            className={styles.input}
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))}
          />
        </label>
      }
      check={() =>
        Number.isInteger(n) && n >= 1 && n <= BLOCK_AND_REPORT.maxBanDays
          ? null
          : `기간은 1~${BLOCK_AND_REPORT.maxBanDays}일로 입력해주세요.`
      }
      summary={`${nickname}님의 업로드를 ${n}일 동안 막습니다.`}
      run={(reason) => ban({ days: n, reason })}
    />
  );
}
