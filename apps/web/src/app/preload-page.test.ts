import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../shared/auth-token';
import { appQueryClient } from './query-provider';
import { preloadPage } from './router';

const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  appQueryClient.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(new URL(url, 'http://localhost').pathname);
      return new Response(JSON.stringify({ success: true, message: 'OK', data: null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => {
  clearToken();
  vi.unstubAllGlobals();
});

describe('opening the app on a page (preloadPage, before hydrating)', () => {
  it("starts a signed-in page's first-screen requests with its chunk, before React renders it", async () => {
    setToken('token');
    await preloadPage('/payment');
    await vi.waitFor(() =>
      expect([...asked].sort()).toEqual(['/api/payment/autopay', '/api/payment/info', '/api/payment/statements']),
    );
    asked.length = 0;
    await preloadPage('/mypage/');
    // The autopay setting and the statements are in the cache already: only my page's own answer is asked for.
    await vi.waitFor(() => expect(asked).toEqual(['/api/mypage']));
    asked.length = 0;
    // The report's first screen is its score; the cards below the fold ask as they mount.
    await preloadPage('/dashboard');
    await vi.waitFor(() => expect(asked).toEqual(['/api/dash/saymyname']));
  });

  it('asks for nothing without a session (the guard sends the visitor to log in), nor for a page without data of its own', async () => {
    await preloadPage('/payment');
    await preloadPage('/login');
    setToken('token');
    await preloadPage('/login');
    expect(asked).toEqual([]);
  });
});
