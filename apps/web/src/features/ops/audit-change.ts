import { kstIso } from '@ohgood/contract/kst';
import { number, won } from '../../shared/format';
import { minute, REQUEST_STATUS } from './components/console-ui';
import { NOTE_CHANNELS_KO, NOTE_OUTCOMES_KO } from './components/contact-note-form';
import { ROLE_LABELS } from './console-access';

/**
 * An audit row's before → after as a person reads it (docs/rules/operations.md#O10): '결제 정지 → 해제',
 * '월 한도 100,000원 → 50,000원', '경고 1회 → 2회'. The server stores the raw state (booleans, nulls, plain
 * numbers, UTC instants); every field it writes has its Korean words here, and anything else still never
 * shows `true`, `null` or an ungrouped number.
 */

interface Words {
  /** What the value is of, before it ('월 한도'); '' when the value's words say it ('사용 중 → 중지'). */
  label: string;
  value: (value: unknown) => string;
  /** What an on → off flag reads after the arrow ('결제 정지 → 해제'). */
  cleared?: string;
  /** Left out when this other field changed too: it follows from it (risk's own limit from the limit). */
  follows?: string;
}

const NONE = '없음';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInstant = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v);

/** Any value in words: no `true`, `null`, raw number or UTC instant reaches the screen. */
function plain(value: unknown): string {
  if (value === null || value === undefined) return NONE;
  if (typeof value === 'boolean') return value ? '예' : '아니요';
  if (typeof value === 'number') return number(value);
  if (isInstant(value)) return minute(kstIso(value));
  if (Array.isArray(value)) return value.length === 0 ? NONE : `${number(value.length)}건`;
  if (isRecord(value)) return describeRecord({}, value);
  return String(value);
}

const flag = (label: string, on: string, off: string, cleared?: string): Words => ({
  label,
  value: (v) => (v === true ? on : off),
  cleared,
});
const named = (label: string, names: Record<string, string>): Words => ({
  label,
  value: (v) => (typeof v === 'string' && names[v]) || plain(v),
});
const amount = (label: string): Words => ({ label, value: (v) => (typeof v === 'number' ? won(v) : plain(v)) });
const count = (label: string, unit: string): Words => ({
  label,
  value: (v) => (typeof v === 'number' ? `${number(v)}${unit}` : plain(v)),
});
const text = (label: string): Words => ({ label, value: plain });

/** A moderation case's state; a case hidden by the report threshold reads as such (see `settle`). */
const STATES: Record<string, string> = {
  OPEN: '검토 대기',
  HIDDEN: '숨김',
  AUTO_HIDDEN: '자동 숨김',
  CLOSED: '종결',
  ...REQUEST_STATUS,
};

/** Every field the server's audit rows hold (apps/server/src/modules/ops/*-service.ts). */
const FIELDS: Record<string, Words> = {
  suspended: flag('결제', '정지', '정상', '해제'),
  staffSuspended: flag('운영자', '정지', '정지 없음', '해제'),
  overdueLifted: flag('연체 중 결제', '허용', '안 됨'),
  limit: amount('월 한도'),
  creditLimit: { ...amount('개별 한도'), follows: 'limit' },
  role: named('역할', ROLE_LABELS),
  disabled: flag('', '중지', '사용 중'),
  state: named('', STATES),
  status: named('', STATES),
  field: named('본 항목', { name: '이름', email: '이메일', account: '계좌' }),
  sessionsRevokedAt: text('세션 끊은 시각'),
  strikes: count('경고', '회'),
  uploadBannedUntil: { label: '업로드 금지', value: (v) => (isInstant(v) ? `${minute(kstIso(v))}까지` : plain(v)) },
  days: count('기간', '일'),
  endsOn: { ...text('종료일'), follows: 'uploadBannedUntil' },
  email: text('이메일'),
  name: text('이름'),
  category: text('분류'),
  // A console search (docs/rules/operations.md#O4): never its query, only what it was and found.
  kind: named('검색', { email: '이메일', number: '고객 번호·계좌번호', name: '이름 일부' }),
  queryLength: count('검색어', '자'),
  // Its start in two groups, enough to tell repeated queries apart at a glance (not a number to read).
  queryHash: { label: '해시', value: (v) => (typeof v === 'string' ? `${v.slice(0, 4)}-${v.slice(4, 8)}…` : plain(v)) },
  results: count('결과', '명'),
  // A CSV export (docs/rules/operations.md#O15): its range or month, and the rows it wrote.
  from: text('시작일'),
  to: text('종료일'),
  month: text('청구 월'),
  asOf: text('기준일'),
  rows: count('내려받은 행', '줄'),
  // A contact note (its text stays in the note).
  channel: named('연락', NOTE_CHANNELS_KO),
  outcome: named('결과', NOTE_OUTCOMES_KO),
  promiseDate: text('납부 약속일'),
  resultIds: {
    label: '찾은 고객',
    value: (v) => (Array.isArray(v) && v.length > 0 ? v.map((id) => `#${plain(id)}`).join(', ') : NONE),
  },
};

/** Fields that say which thing changed, not what: the payment a refund was of leads ('결제 #31: …'). */
const SUBJECTS: Record<string, string> = { paymentId: '결제' };
/** Shown in the row's target column already, or on the customer's timeline (a note's own id). */
const HIDDEN = new Set(['customerId', 'noteId']);

/** What a whole value is of, by action, when it is not a record (a reset's cleared lockouts). */
const ACTION_SUBJECTS: Record<string, string> = { 'customer.reset-lockouts': '잠금' };

const wordsOf = (key: string): Words => FIELDS[key] ?? text(key);
const labelled = (label: string, value: string) => (label ? `${label} ${value}` : value);

/** A case's threshold hide is its own state, so confirming it reads '자동 숨김 → 숨김'. */
function settle(record: Record<string, unknown>): Record<string, unknown> {
  if (!('autoHidden' in record)) return record;
  const { autoHidden, ...rest } = record;
  return autoHidden === true && rest.state === 'HIDDEN' ? { ...rest, state: 'AUTO_HIDDEN' } : rest;
}

function describeRecord(beforeRecord: Record<string, unknown>, afterRecord: Record<string, unknown>): string {
  const before = settle(beforeRecord);
  const after = settle(afterRecord);
  const same = (key: string) => JSON.stringify(before[key]) === JSON.stringify(after[key]);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => !HIDDEN.has(key));
  const subject = keys
    .filter((key) => SUBJECTS[key] && same(key))
    .map((key) => `${SUBJECTS[key]} #${plain(after[key])}`)
    .join(' ');
  const changed = keys.filter((key) => !SUBJECTS[key] && key in after && !same(key));
  const parts = changed
    .filter((key) => {
      const follows = wordsOf(key).follows;
      return !(follows && changed.includes(follows));
    })
    .map((key) => {
      const words = wordsOf(key);
      // A field the before state did not record reads as what it became.
      if (!(key in before)) return labelled(words.label, words.value(after[key]));
      const to =
        before[key] === true && after[key] === false && words.cleared ? words.cleared : words.value(after[key]);
      return labelled(words.label, `${words.value(before[key])} → ${to}`);
    })
    .join(', ');
  return subject && parts ? `${subject}: ${parts}` : subject || parts;
}

/** An audit row's change in words; '' when the action changed nothing it records (a key rotation). */
export function describeChange(before: unknown, after: unknown, action = ''): string {
  if (isRecord(after)) return describeRecord(isRecord(before) ? before : {}, after);
  if ((before === null || before === undefined) && (after === null || after === undefined)) return '';
  return labelled(ACTION_SUBJECTS[action] ?? '', `${plain(before)} → ${plain(after)}`);
}
