import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpsCustomerPage, OpsHome } from '@ohgood/contract/ops';
import { QueryClientProvider } from '@tanstack/react-query';
import { render as renderScreen, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { opsHome } from '../../test/ops-home-fixture';
import { cafeMerchant } from '../../test/ops-merchant-fixtures';
import { type Call, type Routes, stubFetch } from '../../test/stub-fetch';
import { resetToastLog, toastLog } from '../../test/toast-log';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { sectionsFor } from './console-access';
import { CustomerDetail } from './pages/customer-detail';
import { Merchants } from './pages/merchants';
import { Moderation } from './pages/moderation';
import OpsConsolePage from './pages/ops-console-page';

/**
 * The console's screens against a stubbed network (the server's own rules are proved by its tests): every
 * action asks for a reason and a confirmation before it calls, personal data is masked until '보기', and a
 * role sees only what the contract lets it call.
 */

let calls: Call[] = [];

/** Answers each request by `METHOD /path` from `routes`; records every call. */
const serve = (routes: Routes) => stubFetch(routes, calls);

const page = (overrides: Partial<OpsCustomerPage['customer']> = {}): OpsCustomerPage => ({
  customer: {
    customerId: 7,
    name: '김*굿',
    email: 'de**@ohgood.kr',
    account: '****6789',
    gradeName: 'bronze',
    suspended: true,
    nickname: '오굿러',
    accountName: '국민',
    createdAt: '2026-01-02T10:00:00+09:00',
    gradePoint: 5,
    limit: 100_000,
    gradeLimit: 100_000,
    creditLimit: null,
    limitBounds: { min: 10_000, max: 100_000, step: 10_000 },
    usedThisMonth: 30_000,
    pointBalance: 120,
    staffSuspended: true,
    overdueLifted: false,
    sessionsRevokedAt: null,
    uploadBannedUntil: null,
    ...overrides,
  },
  statements: [
    {
      month: '2026-10',
      extension: null,
      overdue: false,
      paid: false,
      lines: [{ paymentId: 31, requestName: '아메리카노', price: 4_500, status: 'UNPAID' }],
    },
  ],
  payments: [
    {
      paymentId: 31,
      date: '2026-10-03T09:00:00+09:00',
      requestName: '아메리카노',
      totalPrice: 4_500,
      pointUsed: 0,
      status: 'UNPAID',
    },
  ],
  points: [{ date: '2026-10-03', amount: 45, reason: 'PURCHASE_EARN' }],
  notices: [{ at: '2026-11-01T09:00:00+09:00', kind: 'STATEMENT', title: '10월 청구서', body: '4,500원' }],
  lockouts: [],
  suspensionHistory: [],
});

const customerRoutes = (extra: Record<string, (body: unknown) => unknown> = {}) => ({
  'GET /api/ops/customers/7': () => page(),
  'GET /api/ops/customers/7/audit': () => ({ items: [], nextCursor: null }),
  'GET /api/ops/customers/7/timeline': () => ({ items: [], nextCursor: null }),
  'GET /api/ops/customers/7/debits': () => ({ items: [] }),
  ...extra,
});

const posts = () => calls.filter((c) => c.method === 'POST');
const reads = (path: string) => calls.filter((c) => c.method === 'GET' && c.path === path).length;

/** Renders a screen in a fresh console cache, as the console page does. */
function render(screenElement: ReactElement) {
  return renderScreen(<QueryClientProvider client={createConsoleQueryClient()}>{screenElement}</QueryClientProvider>);
}

beforeEach(() => {
  calls = [];
  resetToastLog();
  opsToken.set('staff-token');
});
afterEach(() => vi.unstubAllGlobals());

describe('a console action', () => {
  it('asks for a reason, then a confirmation, and only then calls the server', async () => {
    const user = userEvent.setup();
    serve(customerRoutes({ 'POST /api/ops/customers/7/lift': () => ({ customerId: 7, suspended: false }) }));
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    await user.click(await screen.findByRole('button', { name: '정지 해제' }));
    const dialog = screen.getByRole('dialog', { name: '정지 해제' });

    await user.click(within(dialog).getByRole('button', { name: '다음' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('사유를 2자 이상 입력해주세요.');
    expect(posts()).toEqual([]);

    await user.type(within(dialog).getByLabelText(/사유/), '  입금 확인  ');
    await user.click(within(dialog).getByRole('button', { name: '다음' }));
    expect(within(dialog).getByText('사유: 입금 확인')).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: '실행' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts()).toEqual([{ method: 'POST', path: '/api/ops/customers/7/lift', body: { reason: '입금 확인' } }]);
    expect(toastLog).toContain('정지 해제 완료');
  });

  it('backs out on 취소 without calling', async () => {
    const user = userEvent.setup();
    serve(customerRoutes());
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    await user.click(await screen.findByRole('button', { name: '잠금 초기화' }));
    await user.type(screen.getByLabelText(/사유/), '고객 요청');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.click(screen.getByRole('button', { name: '취소' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it('refuses a limit outside the grade’s bounds before calling, then sends one inside them', async () => {
    const user = userEvent.setup();
    serve(
      customerRoutes({
        'POST /api/ops/customers/7/limit': () => ({ customerId: 7, limit: 50_000, creditLimit: 50_000 }),
      }),
    );
    render(<CustomerDetail customerId={7} staffRole="ADMIN" />);
    await user.click(await screen.findByRole('button', { name: '한도 변경' }));
    const limit = screen.getByLabelText(/새 월 한도/);
    await user.clear(limit);
    await user.type(limit, '150000');
    await user.type(screen.getByLabelText(/사유/), '소득 확인 전');
    await user.click(screen.getByRole('button', { name: '다음' }));
    expect(screen.getByRole('alert')).toHaveTextContent('10,000원~100,000원');
    await user.clear(limit);
    await user.type(limit, '50000');
    await user.click(screen.getByRole('button', { name: '다음' }));
    expect(screen.getByText('월 한도 100,000원 → 50,000원')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '실행' }));
    await waitFor(() =>
      expect(posts()).toEqual([
        { method: 'POST', path: '/api/ops/customers/7/limit', body: { limit: 50_000, reason: '소득 확인 전' } },
      ]),
    );
  });
});

describe('what a console action refetches', () => {
  it('lifting a suspension reads the customer’s page and history again, and shows the change', async () => {
    const user = userEvent.setup();
    let suspended = true;
    serve(
      customerRoutes({
        'GET /api/ops/customers/7': () => page({ suspended }),
        'POST /api/ops/customers/7/lift': () => {
          suspended = false;
          return { customerId: 7, suspended: false };
        },
      }),
    );
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    await user.click(await screen.findByRole('button', { name: '정지 해제' }));
    await user.type(screen.getByLabelText(/사유/), '입금 확인');
    await user.click(screen.getByRole('button', { name: '다음' }));
    expect(reads('/api/ops/customers/7')).toBe(1);
    await user.click(screen.getByRole('button', { name: '실행' }));
    // The page now offers the opposite action: it was read again after the lift, not patched by hand.
    expect(await screen.findByRole('button', { name: '결제 정지' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '정지 해제' })).not.toBeInTheDocument();
    expect(reads('/api/ops/customers/7')).toBe(2);
    await waitFor(() => expect(reads('/api/ops/customers/7/audit')).toBe(2));
  });

  it('a reveal reads the customer’s history again but not the page it changed nothing on', async () => {
    const user = userEvent.setup();
    serve(customerRoutes({ 'POST /api/ops/customers/7/reveal': () => ({ field: 'email', value: 'demo@ohgood.kr' }) }));
    render(<CustomerDetail customerId={7} staffRole="SUPPORT" />);
    const [, revealEmail] = await screen.findAllByRole('button', { name: '보기' });
    await user.click(revealEmail as HTMLElement);
    await user.type(screen.getByLabelText(/사유/), '본인 확인 통화');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.click(screen.getByRole('button', { name: '실행' }));
    await waitFor(() => expect(reads('/api/ops/customers/7/audit')).toBe(2));
    expect(screen.getByTestId('personal-email')).toHaveTextContent('demo@ohgood.kr');
    expect(reads('/api/ops/customers/7')).toBe(1);
  });
});

describe('a staff session that ends', () => {
  it('signs the console out at the 401 of a screen’s read, and shows nothing it read to the next sign-in', async () => {
    const user = userEvent.setup();
    const me = { staffId: 1, email: 'admin@ohgood.kr', name: '관리자', role: 'ADMIN', idleMinutes: 30 };
    const home = (count: number): OpsHome => opsHome({ payments: { count, amount: 10_000 } });
    let homeReads = 0;
    let staffReads = 0;
    let answerSecondHome: (response: Response) => void = () => undefined;
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
        calls.push({ method: init.method ?? 'GET', path: url.split('?')[0] as string, body: undefined });
        if (key === 'GET /api/ops/me' || key === 'POST /api/ops/auth/totp') return json(me);
        if (key === 'POST /api/ops/auth/sign-in') return json({ token: 'new-token', stage: 'TOTP' });
        if (key === 'GET /api/ops/staff') {
          staffReads += 1;
          if (staffReads > 1) return json({ items: [] });
          return json({ success: false, code: 'UNAUTHORIZED', message: '다시 로그인해주세요.' }, 401);
        }
        if (key === 'GET /api/ops/home') {
          homeReads += 1;
          if (homeReads === 1) return json(home(2));
          return new Promise<Response>((resolve) => {
            answerSecondHome = resolve;
          });
        }
        return json({ success: false, code: 'NOT_FOUND', message: '없음' }, 404);
      }),
    );
    render(<OpsConsolePage />);
    expect(await screen.findByText('결제 2건')).toBeInTheDocument();

    // The operator's session ended on the server: the next read is refused and the console signs out.
    await user.click(screen.getByRole('button', { name: '운영자' }));
    expect(await screen.findByRole('heading', { name: '오굿페이 운영 콘솔' })).toBeInTheDocument();
    expect(opsToken.get()).toBeNull();

    await user.type(screen.getByLabelText('이메일'), 'admin@ohgood.kr');
    await user.type(screen.getByLabelText('비밀번호'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.type(await screen.findByLabelText('인증 앱의 6자리 코드'), '123456');
    await user.click(screen.getByRole('button', { name: '로그인' }));
    // Back on the screen it left; home then reads afresh: what the ended session read is gone, not shown while
    // it loads.
    await waitFor(() => expect(staffReads).toBe(2));
    await user.click(screen.getByRole('button', { name: '홈' }));
    await waitFor(() => expect(homeReads).toBe(2));
    expect(screen.getByRole('status')).toHaveTextContent('불러오는 중...');
    expect(screen.queryByText('결제 2건')).not.toBeInTheDocument();
    answerSecondHome(json(home(5)));
    expect(await screen.findByText('결제 5건')).toBeInTheDocument();
  });
});

describe('the sign-in’s code step', () => {
  it('keeps the operator on the code step after a wrong code, the field empty and focused; too many → the limit', async () => {
    opsToken.clear();
    const user = userEvent.setup();
    const me = { staffId: 1, email: 'risk@ohgood.kr', name: '리스크', role: 'RISK', idleMinutes: 30 };
    const refusals = [
      {
        status: 401,
        code: 'INVALID_TOTP',
        message: '인증 코드가 올바르지 않습니다. 인증 앱의 새 코드를 입력해주세요.',
      },
      { status: 429, code: 'TOO_MANY_LOGIN_ATTEMPTS', message: '시도가 너무 많습니다. 잠시 후 다시 시도해주세요.' },
    ];
    const codesSent: string[] = [];
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
        if (key === 'POST /api/ops/auth/sign-in') return json({ token: 'pending-token', stage: 'TOTP' });
        if (key === 'POST /api/ops/auth/totp') {
          codesSent.push((JSON.parse(String(init.body)) as { code: string }).code);
          const refusal = refusals.shift();
          if (!refusal) return json(me);
          return json({ success: false, code: refusal.code, message: refusal.message }, refusal.status);
        }
        if (key === 'GET /api/ops/home') return new Promise<Response>(() => undefined);
        return json({ success: false, code: 'NOT_FOUND', message: '없음' }, 404);
      }),
    );
    render(<OpsConsolePage />);
    await user.type(await screen.findByLabelText('이메일'), 'risk@ohgood.kr');
    await user.type(screen.getByLabelText('비밀번호'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: '다음' }));
    const field = await screen.findByLabelText('인증 앱의 6자리 코드');
    await waitFor(() => expect(field).toHaveFocus());

    await user.type(field, '111111');
    await user.click(screen.getByRole('button', { name: '로그인' }));
    // The code's own message, not "다시 로그인" — and the pending session is kept, on the same step.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '인증 코드가 올바르지 않습니다. 인증 앱의 새 코드를 입력해주세요.',
    );
    expect(screen.queryByText(/인증이 필요합니다/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText('이메일')).not.toBeInTheDocument();
    expect(screen.getByLabelText('인증 앱의 6자리 코드')).toHaveValue('');
    expect(screen.getByLabelText('인증 앱의 6자리 코드')).toHaveFocus();
    expect(screen.getByLabelText('인증 앱의 6자리 코드')).toHaveAttribute('aria-invalid', 'true');
    expect(opsToken.get()).toBe('pending-token');

    await user.keyboard('222222{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('시도가 너무 많습니다. 잠시 후 다시 시도해주세요.');
    expect(screen.getByLabelText('인증 앱의 6자리 코드')).toHaveValue('');
    expect(opsToken.get()).toBe('pending-token');

    await user.keyboard('333333{Enter}');
    expect(await screen.findByRole('navigation', { name: '운영 메뉴' })).toBeInTheDocument();
    expect(codesSent).toEqual(['111111', '222222', '333333']);
  });
});

describe('the customer page', () => {
  it('masks personal data; 보기 reveals one field after a reason and a confirmation', async () => {
    const user = userEvent.setup();
    serve(
      customerRoutes({
        'POST /api/ops/customers/7/reveal': () => ({ field: 'name', value: '김오굿' }),
      }),
    );
    render(<CustomerDetail customerId={7} staffRole="SUPPORT" />);
    expect(await screen.findByTestId('personal-name')).toHaveTextContent('김*굿');
    expect(screen.getByTestId('personal-email')).toHaveTextContent('de**@ohgood.kr');
    const [revealName] = screen.getAllByRole('button', { name: '보기' });
    await user.click(revealName as HTMLElement);
    await user.type(screen.getByLabelText(/사유/), '본인 확인 통화');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.click(screen.getByRole('button', { name: '실행' }));
    await waitFor(() => expect(screen.getByTestId('personal-name')).toHaveTextContent('김오굿'));
    // Only the one field: the others stay masked.
    expect(screen.getByTestId('personal-email')).toHaveTextContent('de**@ohgood.kr');
    expect(posts()).toEqual([
      { method: 'POST', path: '/api/ops/customers/7/reveal', body: { field: 'name', reason: '본인 확인 통화' } },
    ]);
  });

  it('shows statements with their lines, points in Korean, notices sent, and no actions to support', async () => {
    serve(customerRoutes());
    render(<CustomerDetail customerId={7} staffRole="SUPPORT" />);
    expect(await screen.findByText(/2026-10 · 1건/)).toBeInTheDocument();
    expect(screen.getAllByText('아메리카노').length).toBeGreaterThan(0);
    expect(screen.getByText('10월 청구서')).toBeInTheDocument();
    expect(screen.getByText('결제 적립')).toBeInTheDocument();
    expect(screen.getByText('이 역할은 조회만 할 수 있습니다.')).toBeInTheDocument();
    for (const action of ['정지 해제', '한도 변경', '잠금 초기화', '모든 세션 끊기', '환불']) {
      expect(screen.queryByRole('button', { name: action })).not.toBeInTheDocument();
    }
  });
});

describe('particles in the console’s copy', () => {
  /** Opens an action's dialog, gives a reason and returns the confirmation's summary line. */
  async function summaryOf(user: ReturnType<typeof userEvent.setup>, button: HTMLElement) {
    await user.click(button);
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText(/사유/), '본인 확인');
    await user.click(within(dialog).getByRole('button', { name: '다음' }));
    const text = within(dialog).getByText(/가리지 않고|가맹점 대신/).textContent;
    await user.click(within(dialog).getByRole('button', { name: '취소' }));
    return text;
  }

  it('follows the inserted word: 이름을, 이메일을, 계좌를, 4,500원을', async () => {
    const user = userEvent.setup();
    serve(customerRoutes());
    render(<CustomerDetail customerId={7} staffRole="RISK" />);
    const reveals = await screen.findAllByRole('button', { name: '보기' });
    const summaries = [];
    for (const reveal of reveals) summaries.push(await summaryOf(user, reveal));
    expect(summaries).toEqual([
      '이름을 가리지 않고 봅니다. 감사 기록에 남아요.',
      '이메일을 가리지 않고 봅니다. 감사 기록에 남아요.',
      '계좌를 가리지 않고 봅니다. 감사 기록에 남아요.',
    ]);
    expect(await summaryOf(user, screen.getByRole('button', { name: '환불' }))).toBe(
      '아메리카노 4,500원을 가맹점 대신 환불합니다.',
    );
    expect(posts()).toEqual([]);
  });

  it('leaves no both-ways particle such as 을(를) or (으)로 in the web app’s source', () => {
    const src = join(__dirname, '..', '..');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    expect(files.length).toBeGreaterThan(100);
    const both = /[을를이가은는와과]\([을를이가은는와과]\)|\(으\)로/;
    expect(files.filter((file) => both.test(readFileSync(join(src, file), 'utf8')))).toEqual([]);
  });
});

describe('screens by role', () => {
  it('shows each role only the screens its endpoints allow', () => {
    const ids = (role: Parameters<typeof sectionsFor>[0]) => sectionsFor(role).map((s) => s.id);
    expect(ids('SUPPORT')).toEqual(['home', 'lists', 'customers', 'month-end']);
    expect(ids('RISK')).toEqual([
      'home',
      'lists',
      'customers',
      'collections',
      'reconciliation',
      'month-end',
      'jobs',
      'merchants',
      'audit',
    ]);
    expect(ids('MODERATOR')).toEqual(['home', 'moderation']);
    expect(ids('ADMIN')).toEqual([
      'home',
      'lists',
      'customers',
      'collections',
      'reconciliation',
      'month-end',
      'jobs',
      'moderation',
      'merchants',
      'staff',
      'audit',
    ]);
  });
});

describe('merchants', () => {
  it('shows a rotated key once, with a copy button', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    serve({
      'GET /api/ops/merchants': () => ({
        items: [cafeMerchant],
      }),
      'POST /api/ops/merchants/3/rotate-key': () => ({ merchantId: 3, apiKey: 'mk_live_new' }),
    });
    render(<Merchants staffRole="ADMIN" />);
    await user.click(await screen.findByRole('button', { name: '키 교체' }));
    await user.type(screen.getByLabelText(/사유/), '유출 의심');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.click(screen.getByRole('button', { name: '실행' }));
    expect(await screen.findByTestId('api-key')).toHaveTextContent('mk_live_new');
    await user.click(screen.getByRole('button', { name: '복사' }));
    expect(writeText).toHaveBeenCalledWith('mk_live_new');
    await user.click(screen.getByRole('button', { name: '닫기' }));
    expect(screen.queryByText('mk_live_new')).not.toBeInTheDocument();
  });
});

describe('the moderation queue', () => {
  it('names a comment’s short and links it in the customer app, in a new tab', async () => {
    serve({
      'GET /api/ops/moderation': () => ({
        mediaBaseUrl: '/media/',
        items: [
          {
            caseId: 4,
            targetType: 'COMMENT',
            targetId: 90,
            state: 'OPEN',
            autoHidden: false,
            reportCount: 1,
            reasons: [{ reason: 'HATE', count: 1 }],
            texts: [],
            creatorId: 12,
            creatorNickname: '댓글러',
            creatorStrikes: 0,
            title: '댓글',
            body: '나쁜 댓글',
            videoPath: null,
            shortsId: 31,
            shortTitle: '한강 산책',
            openedAt: '2026-11-20T10:00:00+09:00',
          },
        ],
      }),
    });
    render(<Moderation />);
    const card = await screen.findByRole('article', { name: '신고 4: ‘한강 산책’에 달린 댓글' });
    expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent('쇼츠 ‘한강 산책’ (새 창)에 달린 댓글');
    const link = within(card).getByRole('link', { name: '‘한강 산책’ (새 창)' });
    expect(link).toHaveAttribute('href', '/shorts/feeds?shortsId=31');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(card).getByText('나쁜 댓글')).toBeInTheDocument();
  });
});

describe('a screen that cannot read its answer', () => {
  it('fails in its own place in Korean with a retry, and the menu opens another screen', async () => {
    const user = userEvent.setup();
    const me = { staffId: 1, email: 'admin@ohgood.kr', name: '관리자', role: 'ADMIN', idleMinutes: 30 };
    // An answer the home screen cannot read (a field it maps is missing): rendering it throws.
    const unreadableHome = { ...opsHome({ payments: { count: 2, amount: 10_000 } }), alerts: null };
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
        if (key === 'GET /api/ops/me') return json(me);
        if (key === 'GET /api/ops/home') return json(unreadableHome);
        if (key === 'GET /api/ops/staff') return json({ items: [] });
        return new Response(JSON.stringify({ success: false, code: 'NOT_FOUND', message: '없음' }), { status: 404 });
      }),
    );
    // React reports the caught error on the console; the screen is what this test reads.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<OpsConsolePage />);

    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('화면을 표시하지 못했습니다.');
    expect(within(failure).getByRole('button', { name: '다시 시도' })).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/Cannot read|null/);

    const menu = screen.getByRole('navigation', { name: '운영 메뉴' });
    await user.click(within(menu).getByRole('button', { name: '운영자' }));
    await waitFor(() => expect(screen.queryByText('화면을 표시하지 못했습니다.')).not.toBeInTheDocument());
    expect(within(menu).getByRole('button', { name: '운영자' })).toHaveAttribute('aria-current', 'page');
  });
});
