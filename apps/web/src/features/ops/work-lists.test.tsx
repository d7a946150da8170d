import type { OpsCustomerPage, OpsHome } from '@ohgood/contract/ops';
import type { OverdueRow, TimelineItem } from '@ohgood/contract/ops-desk';
import { QueryClientProvider } from '@tanstack/react-query';
import { render as renderScreen, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { opsHome } from '../../test/ops-home-fixture';
import { type Call, type Routes, stubFetch } from '../../test/stub-fetch';
import { resetToastLog, toastLog } from '../../test/toast-log';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { CustomerDetail } from './pages/customer-detail';
import { Home } from './pages/home';
import { WorkLists } from './pages/work-lists';

/**
 * The operator's desk against a stubbed network (the server's rules are proved by its tests): home counts open
 * their lists, a list's loading, error with retry, empty state, filters and next page, and the customer's
 * timeline and note form.
 */

let calls: Call[] = [];
let urls: string[] = [];

/** Answers by `METHOD /path` and keeps every URL asked (with its query string). */
function serve(routes: Routes) {
  stubFetch(routes, calls);
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    urls.push(url);
    return answer(url, init);
  });
}

const render = (element: ReactElement) =>
  renderScreen(<QueryClientProvider client={createConsoleQueryClient()}>{element}</QueryClientProvider>);

const failing = () =>
  new Response(JSON.stringify({ success: false, code: 'INTERNAL_ERROR', message: '잠시 후 다시 시도해주세요.' }), {
    status: 500,
  });

const overdue = (customerId: number, promiseDate: string | null = null): OverdueRow => ({
  customerId,
  name: '김*굿',
  email: 'de**@ohgood.kr',
  account: '****6789',
  gradeName: 'bronze',
  suspended: true,
  amount: 45_000,
  daysOverdue: 12,
  oldestMonth: '2026-10',
  promiseDate,
});

beforeEach(() => {
  calls = [];
  urls = [];
  resetToastLog();
  opsToken.set('staff-token');
});
afterEach(() => vi.unstubAllGlobals());

describe('the home counts', () => {
  const home: OpsHome = opsHome({
    date: '2026-11-22',
    payments: { count: 3, amount: 30_000 },
    overdueCustomers: 4,
    autopayFailures: 2,
    openReports: 1,
    reconciliation: { day: '2026-11-21', mismatches: 0 },
  });

  it('open the list behind them for a role that may read it', async () => {
    const user = userEvent.setup();
    serve({ 'GET /api/ops/home': () => home });
    const onOpen = vi.fn();
    render(<Home staffRole="RISK" onOpen={onOpen} />);
    await user.click(await screen.findByRole('button', { name: '연체 고객 4명 목록 보기' }));
    expect(onOpen).toHaveBeenLastCalledWith('lists', 'overdue');
    await user.click(screen.getByRole('button', { name: '자동납부 실패 2건 목록 보기' }));
    expect(onOpen).toHaveBeenLastCalledWith('lists', 'failed-debits');
    await user.click(screen.getByRole('button', { name: /대사 불일치.*목록 보기/ }));
    expect(onOpen).toHaveBeenLastCalledWith('reconciliation', undefined);
  });

  it('stay plain figures where the role may not open the list', async () => {
    serve({ 'GET /api/ops/home': () => home });
    render(<Home staffRole="SUPPORT" onOpen={() => undefined} />);
    expect(await screen.findByText('4명')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /연체 고객/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /자동납부 실패/ })).not.toBeInTheDocument();
  });
});

describe('a work list', () => {
  it('shows its rows masked, the promise date, and the next page on demand', async () => {
    const user = userEvent.setup();
    let page = 0;
    serve({
      'GET /api/ops/lists/overdue': () =>
        page++ === 0
          ? { items: [overdue(1, '2026-11-25'), overdue(2)], nextCursor: 'c1' }
          : { items: [overdue(3)], nextCursor: null },
    });
    render(<WorkLists staffRole="RISK" initial="overdue" />);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('2026-11-25')).toBeInTheDocument();
    expect(within(table).getAllByText('45,000원')).toHaveLength(2);
    expect(within(table).getAllByText('김*굿')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: '더 보기' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(urls.at(-1)).toContain('cursor=c1');
    expect(screen.queryByRole('button', { name: '더 보기' })).not.toBeInTheDocument();
  });

  it('sends the filter bar and the sort as the list query', async () => {
    const user = userEvent.setup();
    serve({ 'GET /api/ops/lists/overdue': () => ({ items: [overdue(1)], nextCursor: null }) });
    render(<WorkLists staffRole="RISK" initial="overdue" />);
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('등급'), 'gold');
    await user.selectOptions(screen.getByLabelText('결제 정지'), 'staff');
    await user.selectOptions(screen.getByLabelText('정렬'), 'days');
    await waitFor(() => expect(urls.at(-1)).toContain('sort=days'));
    const last = new URL(urls.at(-1) as string, 'http://x').searchParams;
    expect(Object.fromEntries(last)).toMatchObject({ grade: 'gold', suspended: 'staff', sort: 'days', dir: 'desc' });
    await user.click(screen.getByRole('button', { name: '필터 지우기' }));
    await waitFor(() => expect(new URL(urls.at(-1) as string, 'http://x').searchParams.has('grade')).toBe(false));
  });

  it('says when it is empty, and shows an error with a retry that reads again', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      'GET /api/ops/lists/failed-debits': () => (fail ? failing() : { items: [], nextCursor: null }),
    });
    render(<WorkLists staffRole="RISK" initial="failed-debits" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('잠시 후 다시 시도해주세요.');
    fail = false;
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByText('오늘 실패한 자동이체가 없어요.')).toBeInTheDocument();
  });

  it('shows support only the lists support may read', async () => {
    serve({ 'GET /api/ops/lists/autopay-pending': () => ({ items: [], nextCursor: null }) });
    render(<WorkLists staffRole="SUPPORT" initial="overdue" />);
    expect(await screen.findByText('인증을 기다리는 고객이 없어요.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '연체 고객' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain('/api/ops/lists/overdue');
  });
});

describe("the customer's desk", () => {
  const customer = {
    customerId: 7,
    name: '김*굿',
    email: 'de**@ohgood.kr',
    account: '****6789',
    gradeName: 'bronze',
    suspended: false,
    nickname: '오굿러',
    accountName: '국민',
    createdAt: '2026-01-02T10:00:00+09:00',
    gradePoint: 5,
    limit: 100_000,
    gradeLimit: 100_000,
    creditLimit: null,
    limitBounds: { min: 10_000, max: 100_000, step: 10_000 },
    usedThisMonth: 0,
    pointBalance: 0,
    staffSuspended: false,
    overdueLifted: false,
    sessionsRevokedAt: null,
    uploadBannedUntil: null,
  };
  const page: OpsCustomerPage = {
    customer,
    statements: [],
    payments: [],
    points: [],
    notices: [],
    lockouts: [],
    suspensionHistory: [],
  };
  const item = (overrides: Partial<TimelineItem>): TimelineItem => ({
    id: 'x:1',
    at: '2026-11-21T07:00:00+09:00',
    kind: 'autopay',
    amount: 30_000,
    status: 'FAILED',
    title: '2026-10',
    detail: 'insufficient_funds',
    staffName: null,
    promiseDate: null,
    ...overrides,
  });
  const routes = (extra: Routes = {}): Routes => ({
    'GET /api/ops/customers/7': () => page,
    'GET /api/ops/customers/7/audit': () => ({ items: [], nextCursor: null }),
    'GET /api/ops/customers/7/timeline': () => ({
      items: [
        item({
          id: 'note:3',
          at: '2026-11-22T12:00:00+09:00',
          kind: 'note',
          amount: null,
          status: 'PROMISED',
          title: '25일까지 납부',
          detail: 'CALL',
          staffName: '리스크 담당',
          promiseDate: '2026-11-25',
        }),
        item({ id: 'autopay:1' }),
      ],
      nextCursor: null,
    }),
    ...extra,
  });

  it("shows the timeline in Korean, the bank's answer included", async () => {
    serve(routes());
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    const timeline = await screen.findByRole('region', { name: '타임라인' });
    const items = await within(timeline).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      '상담 메모 리스크 담당 · 전화 · 납부 약속 · 납부 약속 2026-11-25 — 25일까지 납부',
    );
    expect(items[1]).toHaveTextContent('자동이체 2026-10 청구서 30,000원 · 실패 (은행 응답: 잔액 부족)');
  });

  it('adds a note with a promise date, then reads the timeline again', async () => {
    const user = userEvent.setup();
    serve(routes({ 'POST /api/ops/customers/7/notes': () => ({ noteId: 4, at: '2026-11-22T12:05:00+09:00' }) }));
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    const form = await screen.findByRole('form', { name: '상담 메모 남기기' });
    await user.click(within(form).getByRole('button', { name: '메모 저장' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('메모 내용을 입력해주세요.');
    await user.selectOptions(within(form).getByLabelText('결과'), 'PROMISED');
    await user.type(within(form).getByLabelText('메모'), '월말 입금 약속');
    await user.click(within(form).getByRole('button', { name: '메모 저장' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('납부 약속일을 골라주세요.');
    await user.type(within(form).getByLabelText('납부 약속일 (선택)'), '2026-11-30');
    const timelineReads = calls.filter((c) => c.path === '/api/ops/customers/7/timeline').length;
    await user.click(within(form).getByRole('button', { name: '메모 저장' }));
    await waitFor(() => expect(toastLog).toContain('상담 메모를 남겼어요.'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/ops/customers/7/notes',
        body: { channel: 'CALL', outcome: 'PROMISED', body: '월말 입금 약속', promiseDate: '2026-11-30' },
      },
    ]);
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/ops/customers/7/timeline').length).toBeGreaterThan(timelineReads),
    );
  });

  it('gives support the note form without a promise date', async () => {
    serve(routes());
    render(<CustomerDetail customerId={7} staffRole="SUPPORT" />);
    const form = await screen.findByRole('form', { name: '상담 메모 남기기' });
    expect(within(form).queryByLabelText('납부 약속일 (선택)')).not.toBeInTheDocument();
    expect(within(within(form).getByLabelText('결과')).queryByRole('option', { name: '납부 약속' })).toBeNull();
  });
});
