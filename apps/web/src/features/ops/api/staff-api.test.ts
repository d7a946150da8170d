import { opsEndpoints } from '@ohgood/contract/ops';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api-client';
import { callOps, opsToken, whenSignedOut } from './staff-api';

const respond = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

describe('the console caller', () => {
  it("sends the operator's token, never the customer's", async () => {
    sessionStorage.setItem('accessToken', 'customer-token');
    opsToken.set('staff-token');
    const fetchMock = respond(200, { items: [] });
    vi.stubGlobal('fetch', fetchMock);
    await callOps(opsEndpoints.searchCustomers, { query: { q: '김' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/ops/customers?q=%EA%B9%80');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer staff-token');
  });

  it('signs the console out on a 401 and carries the Korean message, leaving the customer session alone', async () => {
    sessionStorage.setItem('accessToken', 'customer-token');
    opsToken.set('expired');
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    vi.stubGlobal('fetch', respond(401, { success: false, code: 'UNAUTHORIZED', message: '인증이 필요합니다.' }));
    const error = await callOps(opsEndpoints.me).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: '인증이 필요합니다.' });
    expect(opsToken.get()).toBeNull();
    expect(signedOut).toHaveBeenCalledOnce();
    expect(sessionStorage.getItem('accessToken')).toBe('customer-token');
  });

  it('a refused sign-in (a public endpoint) is a wrong password, not a session that ended', async () => {
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    vi.stubGlobal('fetch', respond(401, { success: false, code: 'INVALID_CREDENTIALS', message: '틀렸어요.' }));
    await expect(callOps(opsEndpoints.signIn, { body: { email: 'a@b.kr', password: 'x' } })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('keeps the session on a 403: the role may not do this, the operator stays signed in', async () => {
    opsToken.set('pending');
    vi.stubGlobal('fetch', respond(403, { success: false, code: 'FORBIDDEN', message: '접근 권한이 없습니다.' }));
    await expect(callOps(opsEndpoints.audit)).rejects.toThrow('접근 권한이 없습니다.');
    expect(opsToken.get()).toBe('pending');
  });

  it('repeats a console read through a brief 503, as the customer caller does', async () => {
    opsToken.set('staff-token');
    const outage = { success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시 시도해주세요.' };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify(outage), { status: 503, headers: { 'retry-after': '0' } }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ items: [] }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(callOps(opsEndpoints.staff)).resolves.toEqual({ items: [] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(opsToken.get()).toBe('staff-token');
  });
});
