import type { PortalPayment } from '@ohgood/contract/merchant-portal';
import { render as renderScreen, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { portalHarness, serverFailure } from '../../test/portal-harness';
import { toastLog } from '../../test/toast-log';
import { portalToken } from './api/portal-api';
import { ApiKeys } from './pages/keys';
import { Payments } from './pages/payments';
import MerchantPortalPage from './portal-page';

/**
 * The portal's screens against a stubbed network (the server's rules are proved by its own tests): each read
 * shows loading, an error with a retry, or an empty state; a refund asks for a reason; a new key shows once.
 */

const { calls, serve, render } = portalHarness();
const posts = () => calls.filter((c) => c.method === 'POST');
const reads = (path: string) => calls.filter((c) => c.method === 'GET' && c.path === path);

const payment = (overrides: Partial<PortalPayment> = {}): PortalPayment => ({
  requestId: '00000000-0000-4000-8000-000000000001',
  orderId: 'ORDER-1',
  requestName: '아메리카노',
  totalPrice: 4_500,
  status: 'PAID',
  createdAt: '2026-11-22T03:00:00.000Z',
  paidAt: '2026-11-22T03:01:00.000Z',
  closedAt: null,
  ...overrides,
});

describe('payments', () => {
  it('shows an error with a retry, and the rows once the retry answers', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({ 'GET /api/merchant/payments': () => (fail ? serverFailure() : { items: [payment()], nextCursor: null }) });
    render(<Payments />);
    expect(screen.getByRole('status')).toHaveTextContent('불러오는 중');
    expect(await screen.findByRole('alert')).toHaveTextContent('서버에 문제가 발생했습니다.');
    fail = false;
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByText('ORDER-1')).toBeInTheDocument();
    expect(screen.getByText('4,500원')).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getByText('결제 완료')).toBeInTheDocument();
  });

  it('says when there is nothing, and sends the filter it was given', async () => {
    const user = userEvent.setup();
    const queries: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        queries.push(url);
        return new Response(JSON.stringify({ items: [], nextCursor: null }), { status: 200 });
      }),
    );
    render(<Payments />);
    expect(await screen.findByText('아직 결제가 없어요.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('상태'), '환불');
    await user.type(screen.getByLabelText('주문번호'), ' ORDER-9 ');
    await user.click(screen.getByRole('button', { name: '조회' }));
    expect(await screen.findByText('조건에 맞는 결제가 없어요.')).toBeInTheDocument();
    expect(queries.at(-1)).toContain('status=REFUNDED');
    expect(queries.at(-1)).toContain('orderId=ORDER-9');
  });

  it('pages on with 더 보기 from the cursor the last page gave', async () => {
    const user = userEvent.setup();
    const cursors: Array<string | null> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        cursors.push(cursor);
        const body = cursor
          ? {
              items: [payment({ requestId: '00000000-0000-4000-8000-000000000002', orderId: 'ORDER-0' })],
              nextCursor: null,
            }
          : { items: [payment()], nextCursor: '1700000000000000_00000000-0000-4000-8000-000000000001' };
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    render(<Payments />);
    await user.click(await screen.findByRole('button', { name: '더 보기' }));
    expect(await screen.findByText('ORDER-0')).toBeInTheDocument();
    expect(screen.getByText('ORDER-1')).toBeInTheDocument();
    expect(cursors).toEqual([null, '1700000000000000_00000000-0000-4000-8000-000000000001']);
    expect(screen.queryByRole('button', { name: '더 보기' })).not.toBeInTheDocument();
  });

  it('refunds only with a reason, then reads the list again', async () => {
    const user = userEvent.setup();
    let refunded = false;
    serve({
      'GET /api/merchant/payments': () => ({
        items: [payment(refunded ? { status: 'REFUNDED' } : {})],
        nextCursor: null,
      }),
      [`POST /api/merchant/portal/payments/${payment().requestId}/refund`]: () => {
        refunded = true;
        return payment({ status: 'REFUNDED' });
      },
    });
    render(<Payments />);
    await user.click(await screen.findByRole('button', { name: 'ORDER-1 환불' }));
    const dialog = screen.getByRole('dialog', { name: '결제 환불' });
    await user.click(within(dialog).getByRole('button', { name: '환불하기' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('환불 사유를 2자 이상');
    expect(posts()).toEqual([]);
    await user.type(within(dialog).getByLabelText('환불 사유'), '고객 변심');
    await user.click(within(dialog).getByRole('button', { name: '환불하기' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts()).toEqual([
      {
        method: 'POST',
        path: `/api/merchant/portal/payments/${payment().requestId}/refund`,
        body: { reason: '고객 변심' },
      },
    ]);
    expect(toastLog).toContain('4,500원을 환불했어요.');
    await waitFor(() => expect(within(screen.getByRole('table')).getByText('환불')).toBeInTheDocument());
    expect(reads('/api/merchant/payments')).toHaveLength(2);
  });
});

describe('API keys', () => {
  it('says when there is none; a new key shows once and leaves when kept', async () => {
    const user = userEvent.setup();
    let keys: unknown[] = [];
    serve({
      'GET /api/merchant/portal/keys': () => ({ items: keys }),
      'POST /api/merchant/portal/keys': () => {
        keys = [{ keyId: 5, hint: 'WXYZ', createdAt: '2026-11-22T03:00:00.000Z', revokedAt: null }];
        return { keyId: 5, apiKey: 'ogm_secret-key-WXYZ' };
      },
    });
    render(<ApiKeys />);
    expect(await screen.findByText('발급된 키가 없어요. 새 키를 발급해주세요.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '새 키 발급' }));
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent('ogm_secret-key-WXYZ');
    expect(await screen.findByText('ogm_…WXYZ')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '보관했어요' }));
    expect(screen.queryByText('ogm_secret-key-WXYZ')).not.toBeInTheDocument();
  });

  it('revokes only after the confirmation, and shows an error with a retry when the list fails', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      'GET /api/merchant/portal/keys': () =>
        fail
          ? serverFailure()
          : { items: [{ keyId: 5, hint: 'WXYZ', createdAt: '2026-11-22T03:00:00.000Z', revokedAt: null }] },
      'POST /api/merchant/portal/keys/5/revoke': () => ({ ok: true }),
    });
    render(<ApiKeys />);
    expect(await screen.findByRole('alert')).toHaveTextContent('서버에 문제가 발생했습니다.');
    fail = false;
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    await user.click(await screen.findByRole('button', { name: 'ogm_…WXYZ 폐기' }));
    expect(posts()).toEqual([]);
    await user.click(await screen.findByRole('button', { name: '폐기' }));
    await waitFor(() =>
      expect(posts()).toEqual([{ method: 'POST', path: '/api/merchant/portal/keys/5/revoke', body: undefined }]),
    );
    expect(toastLog).toContain('키를 폐기했어요.');
  });
});

describe('the portal', () => {
  it('signs in with the password, then the code, and opens on the payments with 정산 and 웹훅 kept in the menu', async () => {
    const user = userEvent.setup();
    portalToken.clear();
    const me = {
      merchantUserId: 1,
      email: 'shop@example.com',
      name: '김사장',
      merchantId: 3,
      merchantName: '포털상점',
      idleMinutes: 30,
    };
    serve({
      'POST /api/merchant/portal/auth/sign-in': () => ({ token: 'pending-token', stage: 'TOTP' }),
      'POST /api/merchant/portal/auth/totp': () => me,
      'GET /api/merchant/payments': () => ({ items: [], nextCursor: null }),
    });
    renderScreen(
      <MemoryRouter initialEntries={['/merchant/portal']}>
        <Routes>
          <Route path="/merchant/portal/*" element={<MerchantPortalPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText('이메일'), 'shop@example.com');
    await user.type(screen.getByLabelText('비밀번호'), 'shop-password-1');
    await user.click(screen.getByRole('button', { name: '다음' }));
    await user.type(await screen.findByLabelText('인증 앱의 6자리 코드'), '123456');
    await user.click(screen.getByRole('button', { name: '로그인' }));
    expect(await screen.findByRole('heading', { name: '결제 내역' })).toBeInTheDocument();
    expect(portalToken.get()).toBe('pending-token');
    const menu = screen.getByRole('navigation', { name: '가맹점 메뉴' });
    expect(within(menu).getByRole('link', { name: '정산' })).toHaveAttribute('href', '/merchant/portal/settlements');
    expect(within(menu).getByRole('link', { name: '웹훅' })).toHaveAttribute('href', '/merchant/portal/webhooks');
    expect(menu).not.toHaveTextContent('준비 중');
    expect(posts().map((c) => c.body)).toEqual([
      { email: 'shop@example.com', password: 'shop-password-1' },
      { code: '123456' },
    ]);
  });
});
