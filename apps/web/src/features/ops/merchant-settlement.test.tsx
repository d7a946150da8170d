import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cafeSettlement } from '../../test/ops-merchant-fixtures';
import { type Call, stubFetch } from '../../test/stub-fetch';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { MerchantSettlement } from './components/merchant-settlement';

/*
 * A merchant's settlement in the console (docs/rules/settlement.md#M8) against a stubbed network: its terms,
 * masked account, payable, hold and settlements in Korean, and a hold asked with its reason.
 */
const view = cafeSettlement;

beforeEach(() => opsToken.set('staff-token'));
afterEach(() => vi.unstubAllGlobals());

describe('a merchant’s settlement in the console', () => {
  it('shows fee, cycle, the masked account, the payable and the settlements; a hold is asked with its reason', async () => {
    const user = userEvent.setup();
    const calls: Call[] = [];
    stubFetch(
      {
        'GET /api/ops/merchants/3/settlement': () => view,
        'POST /api/ops/merchants/3/payout-hold': () => ({ ok: true }),
      },
      calls,
    );
    render(
      <QueryClientProvider client={createConsoleQueryClient()}>
        <MerchantSettlement merchantId={3} staffRole="RISK" />
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: '정산' });
    await within(section).findByText('2.50% · D+1 영업일');
    expect(section).toHaveTextContent('신한은행 ****0123 (확인 전)');
    expect(section).toHaveTextContent('97,500원');
    expect(section).toHaveTextContent('수수료 2,500원');
    expect(section).toHaveTextContent('지급 대기');
    expect(within(section).getByRole('button', { name: '계좌 확인' })).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: '지급 보류' }));
    const dialog = screen.getByRole('dialog', { name: '지급 보류' });
    await user.type(within(dialog).getByLabelText(/사유/), '부정 거래 의심');
    await user.click(within(dialog).getByRole('button', { name: '다음' }));
    await user.click(within(dialog).getByRole('button', { name: '실행' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        { method: 'POST', path: '/api/ops/merchants/3/payout-hold', body: { reason: '부정 거래 의심' } },
      ]),
    );
  });
});
