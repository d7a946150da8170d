import type { StaffRole } from '@ohgood/contract/endpoint';
import {
  opsDeskEndpoints as desk,
  NOTE_CHANNELS,
  NOTE_OUTCOMES,
  type NoteRequest,
  PROMISE_ROLES,
} from '@ohgood/contract/ops-desk';
import { useId, useState } from 'react';
import { notify } from '../../../shared/notify';
import { opsChanges } from '../api/keys';
import { useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { FormError, failure } from './console-ui';
import styles from './ops-console.module.css';

export const NOTE_CHANNELS_KO: Record<string, string> = { CALL: '전화', MESSAGE: '메시지' };
export const NOTE_OUTCOMES_KO: Record<string, string> = {
  REACHED: '통화함',
  NO_ANSWER: '받지 않음',
  PROMISED: '납부 약속',
  DISPUTED: '이의 제기',
  OTHER: '기타',
};

type Channel = (typeof NOTE_CHANNELS)[number];
type Outcome = (typeof NOTE_OUTCOMES)[number];

/**
 * Adds a contact note (docs/rules/operations.md#O17): channel, outcome, text, and — for the roles that collect —
 * a promise-to-pay date, which then shows on the overdue list. Notes are kept for good; a correction is a new one.
 */
export function ContactNoteForm({ customerId, staffRole }: { customerId: number; staffRole: StaffRole }) {
  const id = useId();
  const canPromise = PROMISE_ROLES.includes(staffRole);
  const [channel, setChannel] = useState<Channel>('CALL');
  const [outcome, setOutcome] = useState<Outcome>('REACHED');
  const [promiseDate, setPromiseDate] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const add = useConsoleAction(
    (note: NoteRequest) => callOps(desk.addNote, { params: { id: customerId }, body: note }),
    () => opsChanges.note(customerId),
  );
  const outcomes = NOTE_OUTCOMES.filter((o) => canPromise || o !== 'PROMISED');

  async function submit() {
    if (body.trim() === '') return setError('메모 내용을 입력해주세요.');
    if (outcome === 'PROMISED' && promiseDate === '') return setError('납부 약속일을 골라주세요.');
    setError(null);
    setSending(true);
    try {
      await add({ channel, outcome, body: body.trim(), promiseDate: canPromise && promiseDate ? promiseDate : null });
      notify('상담 메모를 남겼어요.');
      setBody('');
      setPromiseDate('');
    } catch (e) {
      setError(failure(e));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      className={styles.card}
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 id={`${id}-title`}>상담 메모 남기기</h3>
      <div className={styles.filters}>
        <label className={styles.field}>
          연락 방법
          <select className={styles.input} value={channel} onChange={(e) => setChannel(e.target.value as Channel)}>
            {NOTE_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {NOTE_CHANNELS_KO[c]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          결과
          <select className={styles.input} value={outcome} onChange={(e) => setOutcome(e.target.value as Outcome)}>
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {NOTE_OUTCOMES_KO[o]}
              </option>
            ))}
          </select>
        </label>
        {canPromise && (
          <label className={styles.field}>
            납부 약속일 (선택)
            <input
              className={styles.input}
              type="date"
              value={promiseDate}
              onChange={(e) => setPromiseDate(e.target.value)}
            />
          </label>
        )}
      </div>
      <label className={styles.field}>
        메모
        <textarea
          className={styles.textarea}
          value={body}
          maxLength={1000}
          onChange={(e) => setBody(e.target.value)}
          placeholder="예: 월말 급여일에 입금하겠다고 함"
        />
      </label>
      <FormError error={error} />
      <button className={styles.button} type="submit" disabled={sending}>
        {sending ? '저장 중...' : '메모 저장'}
      </button>
    </form>
  );
}
