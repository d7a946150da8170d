import type { BlockedCreator } from '@ohgood/contract/safety';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import { BlockedCreators } from './blocked-creators';

const creator = (customerId: number, nickname: string): BlockedCreator => ({
  customerId,
  nickname,
  profileImg: null,
  blockedAt: '2026-11-20T03:00:00.000Z',
});

let blocked: BlockedCreator[];
let failReads: number;
let calls: string[];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  setToken('token');
  resetToastLog();
  blocked = [creator(11, '커피요정'), creator(12, '요리왕오굿')];
  failReads = 0;
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push(`${method} ${url}`);
      if (url === '/api/shorts/blocks' && method === 'GET') {
        if (failReads > 0) {
          failReads -= 1;
          return json({ success: false, code: 'INTERNAL_ERROR', message: '일시적인 오류입니다.' }, 500);
        }
        return json({ success: true, message: 'OK', data: blocked });
      }
      const unblock = url.match(/^\/api\/shorts\/blocks\/(\d+)$/);
      if (unblock && method === 'DELETE') {
        const id = Number(unblock[1]);
        blocked = blocked.filter((b) => b.customerId !== id);
        return json({ success: true, message: '차단을 해제했어요.', data: { customerId: id, blocked: false } });
      }
      return json({ success: false, code: 'NOT_FOUND', message: 'x' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <BlockedCreators mediaBase="/media/" />
    </QueryClientProvider>,
  );
}

describe('BlockedCreators (the shorts my page)', () => {
  it('lists the blocked creators; 차단 해제 removes one, says so and keeps focus in the section', async () => {
    const user = userEvent.setup();
    renderList();
    const section = screen.getByRole('region', { name: '차단한 크리에이터' });
    expect(within(section).getByRole('status')).toHaveTextContent('불러오는 중...');
    const rows = await within(section).findAllByTestId('blocked-creator');
    expect(rows.map((row) => row.textContent)).toEqual(['커피요정차단 해제', '요리왕오굿차단 해제']);

    await user.click(screen.getByRole('button', { name: '커피요정 차단 해제' }));
    await waitFor(() => expect(screen.queryByText('커피요정')).toBeNull());
    expect(calls).toContain('DELETE /api/shorts/blocks/11');
    expect(screen.getAllByTestId('blocked-creator').map((row) => row.textContent)).toEqual(['요리왕오굿차단 해제']);
    expect(toastLog).toEqual(['차단을 해제했어요.']);
    expect(screen.getByRole('heading', { name: '차단한 크리에이터' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: '요리왕오굿 차단 해제' }));
    expect(await screen.findByText('차단한 크리에이터가 없습니다.')).toBeInTheDocument();
  });

  it('a failed load says so and offers 다시 시도, which loads the list', async () => {
    failReads = 1;
    const user = userEvent.setup();
    renderList();
    expect(await screen.findByRole('alert')).toHaveTextContent('일시적인 오류입니다.');
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findAllByTestId('blocked-creator')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an empty list says that nobody is blocked', async () => {
    blocked = [];
    renderList();
    expect(await screen.findByText('차단한 크리에이터가 없습니다.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /차단 해제/ })).toBeNull();
  });
});
