import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../../../shared/auth-token';
import { registerNavigator } from '../../../shared/navigation';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import { landingRotation } from '../roulette';
import RouletteModal from './roulette-modal';

let checkedIn: boolean;
let spins: number;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  setToken('token');
  checkedIn = false;
  spins = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/checkin/today') return json(checkedIn);
      if (url.startsWith('/api/checkin/roulette')) {
        spins += 1;
        if (checkedIn) return json({ success: false, code: 'ALREADY_CHECKED_IN', message: 'x' }, 409);
        checkedIn = true;
        return json({ success: true, message: '30P', data: { point: 30, pointBalance: 130 } });
      }
      return json({}, 404);
    }),
  );
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderModal(onAwarded = vi.fn(), onClose = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouletteModal open onClose={onClose} onAwarded={onAwarded} />
    </QueryClientProvider>,
  );
  return onAwarded;
}

describe('roulette modal', () => {
  it('spins 3,500 ms, lands on the server prize and then shows it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onAwarded = renderModal();
    const button = await screen.findByRole('button', { name: '룰렛 돌리기' });
    fireEvent.click(button);
    await screen.findByRole('button', { name: '돌리는 중...' });
    const wheel = screen.getByRole('img', { name: /룰렛/ });
    expect(wheel.getAttribute('style')).toContain(`rotate(${landingRotation(30)}deg)`);
    expect(wheel.getAttribute('style')).toContain('3500ms');
    await act(async () => {
      vi.advanceTimersByTime(3_400);
    });
    expect(screen.queryByTestId('roulette-result')).toBeNull();
    expect(onAwarded).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(100);
    });
    expect(screen.getByTestId('roulette-result')).toHaveTextContent('30P 당첨!');
    expect(screen.getByTestId('roulette-result')).toHaveTextContent('130P');
    expect(onAwarded).toHaveBeenCalledWith({ point: 30, pointBalance: 130 });
    expect(spins).toBe(1);
  });

  it('already checked in today: the attendance-done message instead of a spin', async () => {
    checkedIn = true;
    renderModal();
    expect(await screen.findByTestId('attendance-done')).toHaveTextContent('이미 출석체크를 완료했어요');
    expect(screen.queryByRole('button', { name: '룰렛 돌리기' })).toBeNull();
    expect(spins).toBe(0);
  });

  it('logged out: the login-required alert and the login page, no call to the server', async () => {
    clearToken();
    resetToastLog();
    const alerts = toastLog;
    const navigate = vi.fn();
    registerNavigator(navigate);
    const onClose = vi.fn();
    renderModal(vi.fn(), onClose);
    expect(alerts).toEqual(['로그인 후 이용 가능합니다.']);
    // The login comes back to Home with the roulette open.
    expect(navigate).toHaveBeenCalledWith('/login?next=%2F%3Fattendance%3D1', undefined);
    expect(onClose).toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });
});
