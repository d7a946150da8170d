import { opsEndpoints } from '@ohgood/contract/ops';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callOps, OpsError, opsToken, whenSignedOut } from './ops-client';

const respond = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

describe('the console caller', () => {
  it("sends the operator's token, never the customer's", async () => {
    localStorage.setItem('accessToken', 'customer-token');
    opsToken.set('staff-token');
    const fetchMock = respond(200, { items: [] });
    vi.stubGlobal('fetch', fetchMock);
    await callOps(opsEndpoints.searchCustomers, { query: { q: '김' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/ops/customers?q=%EA%B9%80');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer staff-token');
  });

  it('signs the console out on a 401 and carries the Korean message', async () => {
    opsToken.set('expired');
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    vi.stubGlobal('fetch', respond(401, { success: false, code: 'UNAUTHORIZED', message: '인증이 필요합니다.' }));
    const error = await callOps(opsEndpoints.me).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpsError);
    expect((error as OpsError).message).toBe('인증이 필요합니다.');
    expect(opsToken.get()).toBeNull();
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it('keeps the session on a 403: the role may not do this, the operator stays signed in', async () => {
    opsToken.set('pending');
    vi.stubGlobal('fetch', respond(403, { success: false, code: 'FORBIDDEN', message: '접근 권한이 없습니다.' }));
    await expect(callOps(opsEndpoints.audit)).rejects.toThrow('접근 권한이 없습니다.');
    expect(opsToken.get()).toBe('pending');
  });
});
