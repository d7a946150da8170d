import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToken, getToken, logout, setToken, useIsLoggedIn } from './auth-token';

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
