import type { CollectionRow, DebitRow, JobRow } from '@ohgood/contract/ops-collections';
import { QueryClientProvider } from '@tanstack/react-query';
import { render as renderScreen, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, stubFetch } from '../../test/stub-fetch';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { DebitsPanel } from './components/debits-panel';
import { Collections } from './pages/collections';
import { Jobs } from './pages/jobs';

/*
 * The console's collections and jobs screens (docs/rules/operations.md#O18–O22) against a stubbed network: a
 * retry shows the bank's answer; a bulk action previews who it affects and confirms with the preview's token;
 * the jobs page shows runs and missed periods, and only an admin is offered a re-run.
 */
function render(element: ReactElement) {
  return renderScreen(<QueryClientProvider client={createConsoleQueryClient()}>{element}</QueryClientProvider>);
}

const row = (customerId: number, overrides: Partial<CollectionRow> = {}): CollectionRow => ({
  customerId,
  name: '김*굿',
  email: 'ki**@ohgood.kr',
  account: '****1234',
  gradeName: 'bronze',
  suspended: false,
  owed: 30_000,
  oldestMonth: '2026-11',
  overdue: false,
  failedToday: 'insufficient_funds',
  ...overrides,
});

const debit = (overrides: Partial<DebitRow> = {}): DebitRow => ({
  attemptId: 7,
  statementId: 3,
  month: '2026-11',
  date: '2026-12-15',
  round: 0,
  status: 'FAILED',
  result: 'insufficient_funds',
  resultText: '잔액 부족',
  amount: 30_000,
  finishedAt: '2026-12-15T10:00:00+09:00',
  ...overrides,
});

/** Fills an action dialog's reason and confirms it. */
async function confirmWithReason(user: ReturnType<typeof userEvent.setup>, reason: string) {
  const dialog = await screen.findByRole('dialog');
  await user.type(within(dialog).getByRole('textbox', { name: /사유/ }), reason);
  await user.click(within(dialog).getByRole('button', { name: '다음' }));
  await user.click(await within(dialog).findByRole('button', { name: '실행' }));
}

beforeEach(() => opsToken.set('staff-token'));
afterEach(() => vi.unstubAllGlobals());

describe('retrying a debit', () => {
  it('offers the latest refusal again and shows the bank’s answer', async () => {
    const user = userEvent.setup();
    const calls: Call[] = [];
    let debits = [debit(), debit({ attemptId: 5, date: '2026-12-14' })];
    stubFetch(
      {
        'GET /api/ops/customers/9/debits': () => ({ items: debits }),
        'POST /api/ops/customers/9/debits/retry': () => {
          const paid = debit({ attemptId: 8, round: 1, status: 'PAID', result: 'paid', resultText: '출금 완료' });
          debits = [paid, ...debits];
          return { debit: paid, created: true };
        },
      },
      calls,
    );
    render(<DebitsPanel customerId={9} />);
    // One bill, two refusals: only the latest is offered.
    const retry = await screen.findAllByRole('button', { name: '지금 다시 출금' });
    expect(retry).toHaveLength(1);
    await user.click(retry[0] as HTMLElement);
    await confirmWithReason(user, '고객 요청');
    expect(await screen.findByTestId('retry-answer')).toHaveTextContent('출금 완료');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ statementId: 3, reason: '고객 요청' });
    const table = await screen.findByRole('table', { name: '자동 납부 출금 내역' });
    expect(await within(table).findByText('2026-12-15 (재출금 1)')).toBeInTheDocument();
  });
});

describe('a bulk action', () => {
  it('previews the count and first rows, then confirms with the preview’s token and reports who was skipped', async () => {
    const user = userEvent.setup();
    const calls: Call[] = [];
    stubFetch(
      {
        'GET /api/ops/collections': () => ({ items: [row(1), row(2)], total: 2 }),
        'POST /api/ops/collections/bulk/preview': () => ({
          count: 2,
          rows: [row(1), row(2)],
          token: 'signed-preview-token-xxxxxxxx',
          expiresAt: '2026-12-15T01:10:00.000Z',
        }),
        'POST /api/ops/collections/bulk/confirm': () => ({
          action: 'suspend',
          done: [1],
          skipped: [{ customerId: 2, why: '미리 본 뒤 조건에서 벗어난 고객입니다.' }],
        }),
      },
      calls,
    );
    const stubbed = globalThis.fetch;
    const urls: string[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      urls.push(url);
      return stubbed(url, init);
    });
    render(<Collections staffRole="RISK" initial="failed-debits" />);
    expect(await screen.findByText('오늘 실패한 자동이체 2명')).toBeInTheDocument();
    // The work lists' own filter bar narrows the list; the bulk action then takes exactly that filter.
    await user.selectOptions(screen.getByRole('combobox', { name: '등급' }), 'bronze');
    const lastQuery = () => Object.fromEntries(new URL(urls.at(-1) ?? '', 'http://console').searchParams);
    await waitFor(() => expect(lastQuery()).toEqual({ list: 'failed-debits', grade: 'bronze' }));
    await user.selectOptions(screen.getByRole('combobox', { name: '조치' }), 'suspend');
    await user.type(screen.getByRole('textbox', { name: /사유/ }), '출금 실패 정지');
    await user.click(screen.getByRole('button', { name: '미리 보기' }));
    const preview = await screen.findByRole('region', { name: '일괄 처리 미리 보기' });
    expect(within(preview).getAllByRole('row')).toHaveLength(3);
    expect(calls.find((c) => c.path.endsWith('/preview'))?.body).toEqual({
      list: 'failed-debits',
      grade: 'bronze',
      action: 'suspend',
      reason: '출금 실패 정지',
    });
    await user.click(within(preview).getByRole('button', { name: '2명에게 실행' }));
    expect(
      await screen.findByText('결제 정지: 1명 처리, 1명 제외 (조건에서 벗어났거나 이미 처리됨)', { selector: 'p' }),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/confirm'))?.body).toEqual({ token: 'signed-preview-token-xxxxxxxx' });
  });

  it('shows the empty list, and an error with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    stubFetch({
      'GET /api/ops/collections': () =>
        fail
          ? new Response(JSON.stringify({ success: false, code: 'INTERNAL', message: '잠시 후 다시 시도해주세요.' }), {
              status: 500,
            })
          : { items: [], total: 0 },
    });
    render(<Collections staffRole="RISK" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('잠시 후 다시 시도해주세요.');
    fail = false;
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByText('조건에 맞는 고객이 없습니다.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '일괄 처리' })).not.toBeInTheDocument();
  });
});

const job = (overrides: Partial<JobRow> = {}): JobRow => ({
  job: 'prune',
  cadence: 'daily',
  scope: 'cluster',
  schedule: '30 3 * * *',
  scheduleText: '매일 03:30',
  lastRuns: [
    {
      period: '2026-12-09',
      startedAt: '2026-12-09T03:30:00+09:00',
      finishedAt: '2026-12-09T03:30:02+09:00',
      outcome: 'done',
      result: { deleted: 12 },
    },
  ],
  nextRun: '2026-12-11T03:30:00+09:00',
  missed: ['2026-12-08'],
  rerunnable: true,
  ...overrides,
});

describe('the jobs page', () => {
  it('shows runs with their counts, the next run and missed periods; an admin re-runs one', async () => {
    const user = userEvent.setup();
    const calls: Call[] = [];
    stubFetch(
      {
        'GET /api/ops/jobs': () => ({
          now: '2026-12-10T03:00:00.000Z',
          items: [
            job(),
            job({
              job: 'statement-issue',
              cadence: 'monthly',
              scheduleText: '매월 1일 00:05',
              lastRuns: [
                {
                  period: '2026-12',
                  startedAt: '2026-12-01T00:05:00+09:00',
                  finishedAt: '2026-12-01T00:05:09+09:00',
                  outcome: 'done',
                  result: { issued: 18 },
                },
              ],
              missed: [],
            }),
          ],
        }),
        'POST /api/ops/jobs/prune/runs': () => ({ job: 'prune', period: '2026-12-08', result: { deleted: 3 } }),
      },
      calls,
    );
    render(<Jobs staffRole="ADMIN" />);
    const issue = await screen.findByRole('list', { name: '청구서 발행 최근 실행' });
    expect(issue).toHaveTextContent('2026-12 2026-12-01 00:05 → 00:05 · 발행 18');
    expect(screen.getByRole('list', { name: '오래된 데이터 정리 빠진 기간' })).toHaveTextContent('2026-12-08');
    await user.click(screen.getByRole('button', { name: '다시 실행' }));
    await confirmWithReason(user, '서버 중단으로 누락');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ date: '2026-12-08', reason: '서버 중단으로 누락' });
    expect(await screen.findByText('deleted 3')).toBeInTheDocument();
  });

  it('shows the recurring and instance jobs with their scope and runs, a failure in words, and no re-run', async () => {
    const run = (minute: string, overrides: Partial<JobRow['lastRuns'][number]> = {}) => ({
      period: `2026-12-10T${minute}`,
      startedAt: `2026-12-10T${minute}:00+09:00`,
      finishedAt: `2026-12-10T${minute}:01+09:00`,
      outcome: 'done' as const,
      result: { handled: 4 },
      ...overrides,
    });
    const recurring = { cadence: 'recurring' as const, missed: [], rerunnable: false };
    stubFetch({
      'GET /api/ops/jobs': () => ({
        now: '2026-12-10T03:00:00.000Z',
        items: [
          job(),
          job({
            ...recurring,
            job: 'push-sending',
            schedule: '*/5 * * * *',
            scheduleText: '5분마다',
            nextRun: '2026-12-10T12:05:00+09:00',
            lastRuns: [run('12:00'), run('11:55')],
          }),
          job({
            ...recurring,
            job: 'webhook-sending',
            schedule: '*/5 * * * *',
            scheduleText: '5분마다',
            lastRuns: [
              run('12:00', { finishedAt: null, outcome: 'failed', result: { error: 'receiver unreachable' } }),
            ],
          }),
          job({
            ...recurring,
            job: 'transcode-takeover',
            scope: 'instance',
            schedule: 'every 10s',
            scheduleText: '10초마다',
            lastRuns: [],
          }),
        ],
      }),
    });
    render(<Jobs staffRole="ADMIN" />);
    const push = await screen.findByRole('row', { name: /푸시 발송/ });
    expect(push).toHaveTextContent('5분마다');
    expect(push).toHaveTextContent('클러스터에서 한 번');
    expect(push).toHaveTextContent('해당 없음');
    expect(within(push).getByRole('list', { name: '푸시 발송 최근 실행' })).toHaveTextContent(
      '2026-12-10 12:00 → 12:00 · 처리 4',
    );
    expect(screen.getByRole('list', { name: '웹훅 발송 최근 실행' })).toHaveTextContent('실패: receiver unreachable');
    const takeover = screen.getByRole('row', { name: /트랜스코딩 인계/ });
    expect(takeover).toHaveTextContent('서버마다');
    expect(takeover).toHaveTextContent('10초마다');
    // Only the calendar job's missed period is offered again.
    expect(screen.getAllByRole('button', { name: '다시 실행' })).toHaveLength(1);
  });

  it('offers risk no re-run', async () => {
    stubFetch({ 'GET /api/ops/jobs': () => ({ now: '2026-12-10T03:00:00.000Z', items: [job()] }) });
    render(<Jobs staffRole="RISK" />);
    expect(await screen.findByText('2026-12-08')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '다시 실행' })).not.toBeInTheDocument();
  });
});
