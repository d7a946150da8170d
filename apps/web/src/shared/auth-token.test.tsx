import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken, logout, SIGNED_IN_MARK, setToken, useIsLoggedIn } from './auth-token';

/** Every render of a signed-in check, with the token held at that moment. */
function renders() {
  const seen: Array<{ loggedIn: boolean; token: string | null }> = [];
  function Probe() {
    seen.push({ loggedIn: useIsLoggedIn(), token: getToken() });
    return null;
  }
  render(<Probe />);
  return seen;
}

afterEach(() => clearToken());

describe('useIsLoggedIn', () => {
  it('shows a session ending at once: no render is signed in once the token is gone', () => {
    setToken('token-a');
    const seen = renders();
    expect(seen.at(-1)).toEqual({ loggedIn: true, token: 'token-a' });
    act(() => logout());
    expect(seen.filter((r) => r.loggedIn && r.token === null)).toEqual([]);
    expect(seen.at(-1)).toEqual({ loggedIn: false, token: null });
  });

  it('shows a session appearing once its render has run', () => {
    const seen = renders();
    expect(seen.at(-1)?.loggedIn).toBe(false);
    act(() => setToken('token-b'));
    expect(seen.at(-1)).toEqual({ loggedIn: true, token: 'token-b' });
  });
});

describe('the signed-in mark on <html>', () => {
  const marked = () => document.documentElement.hasAttribute(SIGNED_IN_MARK);

  it('follows the session: set with a token, gone at logout and when the session ends', () => {
    setToken('token-m');
    expect(marked()).toBe(true);
    logout();
    expect(marked()).toBe(false);
    setToken('token-n');
    clearToken();
    expect(marked()).toBe(false);
  });

  it("is the mark index.html's script sets before the first paint, from the same session key", () => {
    const html = readFileSync(join(__dirname, '../../index.html'), 'utf8');
    const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toContain(`sessionStorage.getItem('accessToken')`);
    setToken('token-o');
    expect(sessionStorage.getItem('accessToken')).toBe('token-o');
    document.documentElement.removeAttribute(SIGNED_IN_MARK);
    // The page's script, run as the browser runs it on a load with that session held.
    new Function(script)();
    expect(marked()).toBe(true);
  });
});

describe('the anonymous start', () => {
  /** A fresh copy of the module (its start-up asks the other tabs), with the clock in the test's hands. */
  async function freshStart() {
    vi.useFakeTimers();
    vi.resetModules();
    return import('./auth-token');
  }
  afterEach(() => vi.useRealTimers());

  it('renders a layout once when no other tab answers: nothing it shows changed', async () => {
    const { useIsLoggedIn: isLoggedIn, SHARE_WAIT_MS } = await freshStart();
    const seen: boolean[] = [];
    function Layout() {
      seen.push(isLoggedIn());
      return null;
    }
    render(<Layout />);
    act(() => vi.advanceTimersByTime(SHARE_WAIT_MS));
    // A second or third render here was the whole layout rendered again after hydrating every anonymous page.
    expect(seen).toEqual([false]);
  });

  it('renders a guard once more when no other tab answers, and not a third time', async () => {
    const { useAuthState: authState, SHARE_WAIT_MS } = await freshStart();
    const seen: string[] = [];
    function Guard() {
      seen.push(authState());
      return null;
    }
    render(<Guard />);
    act(() => vi.advanceTimersByTime(SHARE_WAIT_MS));
    expect(seen).toEqual(['checking', 'out']);
  });

  it('shows a session handed over by another tab, after its deferred render, never as logged out', async () => {
    const { useAuthState: authState, setToken: hold } = await freshStart();
    const seen: string[] = [];
    function Guard() {
      seen.push(authState());
      return null;
    }
    render(<Guard />);
    act(() => hold('token-c'));
    expect(seen.at(-1)).toBe('in');
    expect(seen).not.toContain('out');
  });
});
