import type { StaffRole } from '@ohgood/contract/endpoint';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cafeMerchant, cafeSettlement } from '../../test/ops-merchant-fixtures';
import { type Routes, stubFetch } from '../../test/stub-fetch';
import { merchantReads } from './api/queries';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { Merchants } from './pages/merchants';

/*
 * The merchants page per role (docs/rules/operations.md#O7, settlement.md#M8, webhooks.md#W10) against a
 * stubbed network: RISK finds a merchant, holds its payouts and reads its webhook health, but is never offered
 * what only ADMIN may do; ADMIN keeps every action it had.
 */
const merchant = cafeMerchant;
const settlement = cafeSettlement;
const endpoint = {
  endpointId: '6f1c1e8e-0000-4000-8000-000000000001',
  url: 'https://hooks.cafe.example.com/…',
  events: ['payment.paid', 'payment.refunded'],
  createdAt: '2026-11-01T09:00:00+09:00',
  lastDelivery: { eventType: 'payment.paid', status: 'PENDING', responseCode: 500, at: '2026-11-28T10:15:00+09:00' },
  pending: 2,
  failing: 1,
  oldestPendingSeconds: 5_400,
  tried24h: 4,
  succeeded24h: 3,
  failed24h: 0,
};
const health = { merchantId: 3, asOf: '2026-11-28T10:30:00+09:00', endpoints: [endpoint] };

const base: Routes = {
  'GET /api/ops/merchants': () => ({ items: [merchant] }),
  'GET /api/ops/merchants/3/settlement': () => settlement,
  'GET /api/ops/merchants/3/webhooks': () => health,
  'GET /api/ops/merchants/3': () => ({ ...merchant, recentRequests: [], recentRefunds: [] }),
  'GET /api/ops/merchants/3/users': () => ({ items: [] }),
};

beforeEach(() => opsToken.set('staff-token'));
afterEach(() => vi.unstubAllGlobals());

async function openMerchant(role: StaffRole, routes: Routes = base) {
  const calls = stubFetch(routes, []);
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createConsoleQueryClient()}>
      <Merchants staffRole={role} />
    </QueryClientProvider>,
  );
  const row = await screen.findByRole('row', { name: /카페/ });
  await user.click(within(row).getByRole('button', { name: '상세' }));
  const settlementCard = await screen.findByRole('region', { name: '정산' });
  await within(settlementCard).findByText('2.50% · D+1 영업일');
  return { user, calls, settlementCard };
}

describe('the merchants page by role', () => {
  it('offers RISK the hold and the account check but none of the admin’s actions, nor reads them', async () => {
    const { calls, settlementCard } = await openMerchant('RISK');
    expect(within(settlementCard).getByRole('button', { name: '지급 보류' })).toBeInTheDocument();
    expect(within(settlementCard).getByRole('button', { name: '계좌 확인' })).toBeInTheDocument();
    for (const adminOnly of [
      '수수료 · 주기 변경',
      '정산 계좌 등록',
      '가맹점 등록',
      '키 교체',
      '사용 중지',
      '사용자 추가',
    ]) {
      expect(screen.queryByRole('button', { name: adminOnly }), adminOnly).not.toBeInTheDocument();
    }
    // The admin's reads are not even asked for: the server would refuse them.
    expect(calls.map((c) => c.path)).not.toContain('/api/ops/merchants/3');
    expect(calls.map((c) => c.path)).not.toContain('/api/ops/merchants/3/users');

    // The hold's dialog and call are the settlement card's own (merchant-settlement.test.tsx).
  });

  it('offers RISK the release of a held merchant', async () => {
    const held = { ...settlement, hold: { reason: '부정 거래 의심', heldAt: '2026-11-28T10:00:00+09:00', heldBy: 7 } };
    const { settlementCard } = await openMerchant('RISK', {
      ...base,
      'GET /api/ops/merchants/3/settlement': () => held,
    });
    expect(settlementCard).toHaveTextContent('부정 거래 의심 (2026-11-28 10:00부터)');
    expect(within(settlementCard).getByRole('button', { name: '보류 해제' })).toBeInTheDocument();
    expect(within(settlementCard).queryByRole('button', { name: '지급 보류' })).not.toBeInTheDocument();
  });

  it('keeps every admin action: fee, account, verification, hold, keys, users and recent activity', async () => {
    const { settlementCard } = await openMerchant('ADMIN');
    for (const action of ['수수료 · 주기 변경', '정산 계좌 등록', '계좌 확인', '지급 보류']) {
      expect(within(settlementCard).getByRole('button', { name: action }), action).toBeInTheDocument();
    }
    for (const action of ['가맹점 등록', '키 교체', '사용 중지', '사용자 추가']) {
      expect(screen.getByRole('button', { name: action }), action).toBeInTheDocument();
    }
    expect(await screen.findByText('최근 결제 요청')).toBeInTheDocument();
  });

  it('shows each endpoint’s webhook health: address, events, last delivery, waits, failures, success share', async () => {
    await openMerchant('RISK');
    const block = await screen.findByRole('region', { name: '웹훅 상태' });
    const card = await within(block).findByRole('article', { name: '웹훅 https://hooks.cafe.example.com/…' });
    expect(card).toHaveTextContent('payment.paid, payment.refunded');
    expect(card).toHaveTextContent('2026-11-28 10:15 · 재시도 대기 · HTTP 500');
    expect(card).toHaveTextContent('대기 2건 · 실패 후 재시도 1건 · 가장 오래 1시간 대기');
    expect(card).toHaveTextContent('75% (3/4)');
    expect(card).toHaveTextContent('실패 있음');
  });

  it('says so when a merchant has no webhook endpoint', async () => {
    await openMerchant('RISK', { ...base, 'GET /api/ops/merchants/3/webhooks': () => ({ ...health, endpoints: [] }) });
    const block = await screen.findByRole('region', { name: '웹훅 상태' });
    expect(await within(block).findByText('등록된 웹훅 엔드포인트가 없습니다.')).toBeInTheDocument();
  });

  it('shows a failed webhook read with a retry that reads again', async () => {
    let fail = true;
    const { user } = await openMerchant('RISK', {
      ...base,
      'GET /api/ops/merchants/3/webhooks': () =>
        fail
          ? new Response(JSON.stringify({ success: false, code: 'INTERNAL', message: '잠시 후 다시 시도해주세요.' }), {
              status: 500,
            })
          : health,
    });
    const block = await screen.findByRole('region', { name: '웹훅 상태' });
    expect(await within(block).findByRole('alert')).toHaveTextContent('다시 시도');
    fail = false;
    await user.click(within(block).getByRole('button', { name: '다시 시도' }));
    expect(await within(block).findByText('75% (3/4)')).toBeInTheDocument();
  });

  it('shows the detail’s sections together once each has answered, so nothing moves under the pointer', async () => {
    let answerUsers: (answer: unknown) => void = () => {};
    const usersHeld = new Promise((resolve) => (answerUsers = resolve));
    const calls = stubFetch({ ...base, 'GET /api/ops/merchants/3/users': () => usersHeld });
    const client = createConsoleQueryClient();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <Merchants staffRole="ADMIN" />
      </QueryClientProvider>,
    );
    await user.click(within(await screen.findByRole('row', { name: /카페/ })).getByRole('button', { name: '상세' }));
    const detail = screen.getByRole('region', { name: '가맹점 #3 카페' });
    // The activity, the settlement and the webhooks have answered; the users have not.
    for (const read of [merchantReads.activity(3), merchantReads.settlement(3), merchantReads.webhooks(3)]) {
      await waitFor(() => expect(client.getQueryState(read.queryKey)?.status).toBe('success'));
    }
    // TanStack Query tells its observers on the next turn of the event loop: a section that showed its own
    // answer as it came would show it after this turn.
    await act(() => new Promise((resolve) => setTimeout(resolve)));
    expect(within(detail).getByRole('status')).toHaveTextContent('불러오는 중...');
    expect(within(detail).queryByText('최근 결제 요청')).not.toBeInTheDocument();
    expect(within(detail).queryByRole('region', { name: '정산' })).not.toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: '사용자 추가' })).not.toBeInTheDocument();

    answerUsers({ items: [] });
    expect(await within(detail).findByRole('button', { name: '사용자 추가' })).toBeInTheDocument();
    expect(within(detail).getByText('최근 결제 요청')).toBeInTheDocument();
    expect(within(detail).getByRole('region', { name: '정산' })).toHaveTextContent('2.50% · D+1 영업일');
    expect(within(detail).getByRole('region', { name: '웹훅 상태' })).toBeInTheDocument();
    // Each read was made once: the sections did not read again as they appeared, so no loading line shows.
    expect(within(detail).queryByRole('status')).not.toBeInTheDocument();
    const paths = calls.map((call) => call.path);
    for (const path of ['/api/ops/merchants/3', '/api/ops/merchants/3/users', '/api/ops/merchants/3/settlement']) {
      expect(
        paths.filter((p) => p === path),
        path,
      ).toHaveLength(1);
    }
  });
});
