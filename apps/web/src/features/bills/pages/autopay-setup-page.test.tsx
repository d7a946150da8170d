import { AUTOPAY_CONSENT, AUTOPAY_MSG, type AutopaySetting } from '@ohgood/contract/autopay';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import AutopayToggle from '../components/autopay-toggle';
import AutopaySetupPage from './autopay-setup-page';

/*
 * The consent and 1원 인증 screen and the autopay card against a small fake of the server's rules: the
 * server is tested for real in account-verification.test.ts; here, what the customer sees at each step.
 */

const CODE = '4821';
let setting: AutopaySetting;
let tries: number;
let calls: Array<{ url: string; method: string; body: unknown }>;

const base = (over: Partial<AutopaySetting>): AutopaySetting => ({
  autopay: true,
  account: '1002-***-**8901',
  accountName: '토스',
  state: 'pending',
  pendingReason: 'consent',
  verified: false,
  consentVersion: null,
  verification: null,
  ...over,
});
const open = () => ({
  expiresAt: '2026-11-22T03:10:00.000Z',
  triesLeft: 5 - tries,
  resendAt: '2026-11-22T03:01:00.000Z',
});

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const ok = (message = 'OK') => json({ success: true, message, data: setting });
const refuse = (status: number, code: string, message: string) => json({ success: false, code, message }, status);

beforeEach(() => {
  setToken('token');
  resetToastLog();
  setting = base({});
  tries = 0;
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method, body });
      if (url === '/api/payment/autopay' && method === 'GET') return ok();
      if (url === '/api/payment/autopay' && method === 'PUT') {
        setting = base({ pendingReason: 'verification', consentVersion: body.consentVersion });
        return ok(AUTOPAY_MSG.consented);
      }
      if (url === '/api/payment/autopay/verification') {
        tries = 0;
        setting = { ...setting, verification: open() };
        return ok(AUTOPAY_MSG.codeSent);
      }
      if (url === '/api/payment/autopay/verification/confirm') {
        if (body.code === CODE) {
          setting = base({ state: 'on', pendingReason: null, verified: true, consentVersion: AUTOPAY_CONSENT.version });
          return ok(AUTOPAY_MSG.verified);
        }
        tries += 1;
        if (tries >= 5) {
          setting = { ...setting, verification: null };
          return refuse(429, 'VERIFICATION_LOCKED', AUTOPAY_MSG.codeLocked);
        }
        setting = { ...setting, verification: open() };
        return refuse(400, 'VERIFICATION_CODE_WRONG', AUTOPAY_MSG.codeWrong(5 - tries));
      }
      return refuse(404, 'NOT_FOUND', 'x');
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/payment" element={<AutopayToggle />} />
          <Route path="/payment/autopay" element={<AutopaySetupPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('autopay card', () => {
  it('a pending customer is told why nothing is debited and can go to the consent screen', async () => {
    const user = userEvent.setup();
    renderAt('/payment');
    const card = await screen.findByTestId('autopay-card');
    expect(within(card).getByRole('status')).toHaveTextContent(AUTOPAY_MSG.pending.consent);
    await user.click(within(card).getByRole('link', { name: '출금 동의하고 계좌 인증하기' }));
    expect(await screen.findByRole('heading', { name: AUTOPAY_CONSENT.title })).toBeInTheDocument();
  });

  it('says a verification is still needed once consent is given', async () => {
    setting = base({ pendingReason: 'verification', consentVersion: AUTOPAY_CONSENT.version });
    renderAt('/payment');
    expect(await screen.findByRole('status')).toHaveTextContent(AUTOPAY_MSG.pending.verification);
    expect(screen.getByRole('link', { name: '계좌 1원 인증하기' })).toHaveAttribute('href', '/payment/autopay');
  });

  it('turning the switch on from off goes to the consent screen, not straight to the server', async () => {
    setting = base({ autopay: false, state: 'off', pendingReason: null });
    const user = userEvent.setup();
    renderAt('/payment');
    await user.click(await screen.findByTestId('autopay-switch'));
    expect(await screen.findByRole('heading', { name: AUTOPAY_CONSENT.title })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });
});

describe('/payment/autopay: consent, then 1원 인증', () => {
  it('consent with the words version, a code sent, a wrong code with the tries left, then the right code', async () => {
    const user = userEvent.setup();
    renderAt('/payment/autopay');
    const agree = await screen.findByRole('button', { name: '동의하고 계속' });
    expect(agree).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /출금에 동의해요/ }));
    await user.click(agree);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      autopay: true,
      consentVersion: AUTOPAY_CONSENT.version,
    });

    await user.click(await screen.findByRole('button', { name: '1원 보내기' }));
    const input = await screen.findByLabelText('인증 코드 4자리');
    expect(screen.getByText(/남은 입력 5번/)).toBeInTheDocument();
    await user.type(input, '12a3'); // digits only
    expect(input).toHaveValue('123');
    await user.type(input, '4');
    await user.click(screen.getByRole('button', { name: '인증하기' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('인증 코드가 맞지 않아요. 4번 더 입력할 수 있어요.');
    expect(await screen.findByText(/남은 입력 4번/)).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, CODE);
    await user.click(screen.getByRole('button', { name: '인증하기' }));
    expect(await screen.findByRole('heading', { name: '자동 납부가 켜져 있어요' })).toBeInTheDocument();
    await waitFor(() => expect(toastLog).toContain(AUTOPAY_MSG.verified));
  });

  it('after five wrong codes the code is gone and a new one must be asked for', async () => {
    setting = base({ pendingReason: 'verification', consentVersion: AUTOPAY_CONSENT.version });
    const user = userEvent.setup();
    renderAt('/payment/autopay');
    await user.click(await screen.findByRole('button', { name: '1원 보내기' }));
    const input = await screen.findByLabelText('인증 코드 4자리');
    for (let n = 0; n < 5; n++) {
      await user.clear(input);
      await user.type(input, '0000');
      await user.click(screen.getByRole('button', { name: '인증하기' }));
      await waitFor(() => expect(tries).toBe(n + 1));
    }
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTOPAY_MSG.codeLocked);
    await waitFor(() => expect(screen.queryByLabelText('인증 코드 4자리')).toBeNull());
    expect(screen.getByRole('button', { name: '1원 보내기' })).toBeEnabled();
  });
});
