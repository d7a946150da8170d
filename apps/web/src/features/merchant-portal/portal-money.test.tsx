import type { SettlementSummary } from '@ohgood/contract/settlements';
import type { WebhookDeliveryView, WebhookEndpointView } from '@ohgood/contract/webhooks';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { portalHarness, serverFailure } from '../../test/portal-harness';
import { toastLog } from '../../test/toast-log';
import { Settlements } from './pages/settlements';
import { Webhooks } from './pages/webhooks';

/**
 * The portal's settlement and webhook screens against a stubbed network (the server's rules are proved by its
 * own tests): loading, error with a retry and empty states; a settlement's lines and CSV; an endpoint's
 * secret shown once, its events changed, deleted only after the confirmation; a delivery replayed.
 */

// The confirm sheet loads on its first question: on a busy machine that can outlast the default second.
configure({ asyncUtilTimeout: 5_000 });

const { calls, serve, render } = portalHarness();
const writes = () => calls.filter((c) => c.method !== 'GET');

const settlement = (overrides: Partial<SettlementSummary> = {}): SettlementSummary => ({
  settlementId: 7,
  date: '2026-11-27',
  feeBps: 250,
  sales: 40_000,
  refunds: 4_000,
  fees: 900,
  carriedIn: 0,
  net: 35_100,
  payout: 35_100,
  dueDate: '2026-11-30',
  status: 'PENDING',
  paidAt: null,
  ...overrides,
});

const ENDPOINT_ID = '00000000-0000-4000-8000-0000000000aa';
const endpoint = (overrides: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  endpointId: ENDPOINT_ID,
  url: 'https://shop.example.com/hooks',
  events: ['payment.paid'],
  createdAt: '2026-11-22T03:00:00.000Z',
  previousSecretExpiresAt: null,
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  deliveryId: 41,
  endpointId: ENDPOINT_ID,
  eventId: 'evt_abc',
  eventType: 'payment.paid',
  status: 'FAILED',
  attempts: 21,
  responseCode: 500,
  durationMs: 12,
  error: null,
  lastAttemptAt: '2026-11-25T03:00:00.000Z',
  nextAttemptAt: null,
  createdAt: '2026-11-22T03:00:00.000Z',
  ...overrides,
});

describe('settlements', () => {
  it('shows an error with a retry, then the days; one opens with its lines', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      'GET /api/merchant/settlements': () => (fail ? serverFailure() : { items: [settlement()] }),
      'GET /api/merchant/settlements/7': () => ({
        ...settlement(),
        lines: [
          {
            kind: 'SALE',
            paymentId: 1,
            orderId: 'ORDER-1',
            requestName: '케이크',
            amount: 40_000,
            fee: 1_000,
            at: '2026-11-27T12:00:00+09:00',
          },
          {
            kind: 'REFUND',
            paymentId: 2,
            orderId: 'ORDER-2',
            requestName: '쿠키',
            amount: 4_000,
            fee: 100,
            at: '2026-11-27T13:00:00+09:00',
          },
        ],
      }),
    });
    render(<Settlements />);
    expect(screen.getByRole('status')).toHaveTextContent('불러오는 중');
    expect(await screen.findByRole('alert')).toHaveTextContent('서버에 문제가 발생했습니다.');
    fail = false;
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    const row = (await screen.findByText('2026-11-27')).closest('tr') as HTMLElement;
    expect(within(row).getByText('35,100원')).toBeInTheDocument();
    expect(within(row).getByText('지급 예정')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '2026-11-27 정산 상세' }));
    const detail = screen.getByRole('region', { name: '2026-11-27 정산' });
    expect(await within(detail).findByText('ORDER-2')).toBeInTheDocument();
    const refundLine = within(detail).getByText('ORDER-2').closest('tr') as HTMLElement;
    expect(within(refundLine).getByText('환불')).toBeInTheDocument();
    // A refund takes its amount and its fee back: both shown as minus.
    expect(within(refundLine).getByText('-4,000원')).toBeInTheDocument();
    expect(within(refundLine).getByText('-100원')).toBeInTheDocument();
    expect(within(detail).getByText('수수료 (2.50%)')).toBeInTheDocument();
  });

  it('says when there is none', async () => {
    serve({ 'GET /api/merchant/settlements': () => ({ items: [] }) });
    render(<Settlements />);
    expect(await screen.findByText('아직 정산 내역이 없어요.')).toBeInTheDocument();
  });

  it('downloads the CSV with the session token, and says so when it fails', async () => {
    const user = userEvent.setup();
    const asked: Array<{ url: string; auth: string | undefined }> = [];
    let csvStatus = 500;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.endsWith('/csv')) {
          asked.push({ url, auth: (init.headers as Record<string, string>).authorization });
          return new Response('\uFEFF구분,결제번호\r\n', { status: csvStatus });
        }
        const body = url.includes('/settlements/7') ? { ...settlement(), lines: [] } : { items: [settlement()] };
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    const created = vi.fn(() => 'blob:settlement');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => undefined }));
    render(<Settlements />);
    await user.click(await screen.findByRole('button', { name: '2026-11-27 정산 상세' }));
    await user.click(screen.getByRole('button', { name: 'CSV 내려받기' }));
    await waitFor(() => expect(toastLog).toContain('정산 CSV를 내려받지 못했어요. 잠시 후 다시 시도해주세요.'));
    expect(created).not.toHaveBeenCalled();
    csvStatus = 200;
    await user.click(screen.getByRole('button', { name: 'CSV 내려받기' }));
    await waitFor(() => expect(toastLog).toContain('정산 CSV를 내려받았어요.'));
    expect(created).toHaveBeenCalledTimes(1);
    expect(asked.at(-1)).toEqual({ url: '/api/merchant/settlements/7/csv', auth: 'Bearer portal-token' });
  });
});

describe('webhooks', () => {
  it('registers an endpoint with the chosen events and shows its secret once', async () => {
    const user = userEvent.setup();
    let endpoints: WebhookEndpointView[] = [];
    serve({
      'GET /api/merchant/webhooks': () => ({ items: endpoints }),
      'GET /api/merchant/webhooks/deliveries': () => ({ items: [] }),
      'POST /api/merchant/webhooks': (body) => {
        endpoints = [endpoint({ events: (body as { events: WebhookEndpointView['events'] }).events })];
        return { endpoint: endpoints[0], secret: 'whsec_once' };
      },
    });
    render(<Webhooks />);
    expect(await screen.findByText('등록된 엔드포인트가 없어요.')).toBeInTheDocument();
    expect(await screen.findByText('아직 보낸 이벤트가 없어요.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: '엔드포인트 추가' });
    await user.click(within(form).getByRole('button', { name: '등록' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('받을 주소(URL)를 입력해주세요.');
    await user.type(within(form).getByLabelText('받을 주소 (https://)'), 'https://shop.example.com/hooks');
    await user.click(within(form).getByRole('checkbox', { name: /정산 지급/ }));
    await user.click(within(form).getByRole('button', { name: '등록' }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_once');
    expect(writes()).toEqual([
      {
        method: 'POST',
        path: '/api/merchant/webhooks',
        body: {
          url: 'https://shop.example.com/hooks',
          events: ['payment.paid', 'payment.refunded', 'settlement.paid'],
        },
      },
    ]);
    expect(toastLog).toContain('엔드포인트를 등록했어요.');
    await user.click(screen.getByRole('button', { name: '보관했어요' }));
    expect(screen.queryByText('whsec_once')).not.toBeInTheDocument();
  });

  it('changes events, sends a test, deletes only after the confirmation, and replays a delivery', async () => {
    const user = userEvent.setup();
    serve({
      'GET /api/merchant/webhooks': () => ({ items: [endpoint()] }),
      'GET /api/merchant/webhooks/deliveries': () => ({ items: [delivery()] }),
      [`PATCH /api/merchant/webhooks/${ENDPOINT_ID}`]: (body) => endpoint(body as Partial<WebhookEndpointView>),
      [`POST /api/merchant/webhooks/${ENDPOINT_ID}/test`]: () => delivery({ eventType: 'webhook.test' }),
      [`DELETE /api/merchant/webhooks/${ENDPOINT_ID}`]: () => ({ deleted: true }),
      'POST /api/merchant/webhooks/deliveries/41/replay': () => delivery({ status: 'PENDING' }),
    });
    render(<Webhooks />);
    const item = await screen.findByRole('listitem', { name: 'https://shop.example.com/hooks' });
    const save = within(item).getByRole('button', { name: '이벤트 저장' });
    expect(save).toBeDisabled();
    await user.click(within(item).getByRole('checkbox', { name: /결제 요청 만료/ }));
    await user.click(save);
    await user.click(within(item).getByRole('button', { name: '테스트 전송' }));
    await waitFor(() => expect(toastLog).toContain('테스트 이벤트를 보냈어요.'));
    // The log: a failed delivery shows its code and attempts, and replays.
    const logged = (await screen.findByText('evt_abc')).closest('tr') as HTMLElement;
    expect(within(logged).getByText('실패')).toBeInTheDocument();
    expect(logged).toHaveTextContent('HTTP 500');
    expect(logged).toHaveTextContent('21회');
    await user.click(within(logged).getByRole('button', { name: '결제 완료 evt_abc 재전송' }));
    await waitFor(() => expect(toastLog).toContain('다시 보냈어요.'));
    // Delete: cancelled first (nothing sent), then confirmed.
    await user.click(within(item).getByRole('button', { name: '삭제' }));
    await user.click(await within(await screen.findByTestId('confirm-sheet')).findByRole('button', { name: '취소' }));
    expect(writes().filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(within(item).getByRole('button', { name: '삭제' }));
    await user.click(await within(await screen.findByTestId('confirm-sheet')).findByRole('button', { name: '삭제' }));
    await waitFor(() => expect(toastLog).toContain('엔드포인트를 삭제했어요.'));
    expect(writes().map((c) => [c.method, c.path, c.body])).toEqual([
      ['PATCH', `/api/merchant/webhooks/${ENDPOINT_ID}`, { events: ['payment.paid', 'payment.expired'] }],
      ['POST', `/api/merchant/webhooks/${ENDPOINT_ID}/test`, undefined],
      ['POST', '/api/merchant/webhooks/deliveries/41/replay', undefined],
      ['DELETE', `/api/merchant/webhooks/${ENDPOINT_ID}`, undefined],
    ]);
  });

  it('rotates the secret only after the confirmation and shows the new one once', async () => {
    const user = userEvent.setup();
    serve({
      'GET /api/merchant/webhooks': () => ({ items: [endpoint()] }),
      'GET /api/merchant/webhooks/deliveries': () => ({ items: [] }),
      [`POST /api/merchant/webhooks/${ENDPOINT_ID}/rotate-secret`]: () => ({
        endpoint: endpoint({ previousSecretExpiresAt: '2026-11-23T03:00:00.000Z' }),
        secret: 'whsec_rotated',
      }),
    });
    render(<Webhooks />);
    const item = await screen.findByRole('listitem', { name: 'https://shop.example.com/hooks' });
    await user.click(within(item).getByRole('button', { name: '비밀키 교체' }));
    const sheet = await screen.findByTestId('confirm-sheet');
    expect(writes()).toEqual([]);
    await user.click(await within(sheet).findByRole('button', { name: '교체' }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_rotated');
    expect(writes()).toEqual([
      { method: 'POST', path: `/api/merchant/webhooks/${ENDPOINT_ID}/rotate-secret`, body: undefined },
    ]);
    expect(toastLog).toContain('비밀키를 교체했어요.');
  });
});
