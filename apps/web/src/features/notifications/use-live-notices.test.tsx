import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../../shared/auth-token';
import { noticeKeys } from './api/notifications-api';
import { REPLACED_WAIT_MS, useLiveNotices } from './use-live-notices';

/*
 * A stream the server replaced (more tabs than the customer's ceiling, docs/security.md) does not come straight
 * back to push out another tab's: a hidden tab waits until it is shown, a tab in view waits REPLACED_WAIT_MS.
 * Any other end of a stream is followed again after a second, as before.
 */
const READY = 'event: ready\ndata: {"unread":3}\n\n';
const REPLACED = 'event: reconnect\nretry: 1000\ndata: {"reason":"replaced"}\n\n';

let visibility: DocumentVisibilityState = 'visible';
let fetches: ReturnType<typeof vi.fn>;
let client: QueryClient;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  setToken('token-1');
  client = new QueryClient();
});
afterEach(() => {
  clearToken();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Every stream the hook opens answers `body` and ends. */
function serve(body: string) {
  fetches = vi.fn(async () => new Response(body, { status: 200 }));
  vi.stubGlobal('fetch', fetches);
}

/** Serves `body` to every stream, follows, and waits until the first stream's `ready` has been read. */
async function follow(body: string) {
  serve(body);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useLiveNotices(true), { wrapper });
  await vi.waitFor(() => expect(client.getQueryData(noticeKeys.unread)).toBe(3));
  return hook;
}

describe('useLiveNotices after a stream ends', () => {
  it('follows an ordinary end again after a second', async () => {
    const { unmount } = await follow(READY);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetches.mock.calls.length).toBeGreaterThanOrEqual(2);
    unmount();
  });

  it('a replaced stream in a hidden tab stays closed until the tab is shown', async () => {
    visibility = 'hidden';
    const { unmount } = await follow(READY + REPLACED);
    await vi.advanceTimersByTimeAsync(10 * REPLACED_WAIT_MS);
    expect(fetches).toHaveBeenCalledTimes(1);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(fetches).toHaveBeenCalledTimes(2));
    unmount();
  });

  it('a replaced stream in a tab in view comes back after REPLACED_WAIT_MS, not after a second', async () => {
    visibility = 'visible';
    const { unmount } = await follow(READY + REPLACED);
    await vi.advanceTimersByTimeAsync(REPLACED_WAIT_MS - 1_000);
    expect(fetches).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetches).toHaveBeenCalledTimes(2);
    unmount();
  });
});
