import { authEndpoints } from '@ohgood/contract/auth';
import { billEndpoints } from '@ohgood/contract/bills';
import { checkinEndpoints } from '@ohgood/contract/checkin';
import { defineEndpoint, enveloped } from '@ohgood/contract/endpoint';
import { paymentEndpoints } from '@ohgood/contract/payments';
import { shortsEndpoints } from '@ohgood/contract/shorts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, callEndpoint, createCaller, type SessionPolicy } from './api-client';
import { clearToken, getToken, logout, setToken } from './auth-token';
import { registerNavigator } from './navigation';
import { currentToast, dismissToast } from './toast';

const navigate = vi.fn();
const alertSpy = vi.fn();

function respond(status: number, body: unknown) {
  return vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

beforeEach(() => {
  registerNavigator(navigate);
  navigate.mockReset();
  alertSpy.mockReset();
  window.alert = alertSpy;
});
afterEach(() => vi.unstubAllGlobals());

describe('api client (real contract endpoints)', () => {
  it('adds the bearer token and resolves to the body as declared, bare or enveloped', async () => {
    setToken('tok-1');
    const mypage = { name: '오굿', emailId: 'a@b.kr', gradeName: 'bronze', pointPercent: 0.2, gradePoint: 0 };
    const fetchMock = respond(200, mypage);
    vi.stubGlobal('fetch', fetchMock);
    await expect(callEndpoint(paymentEndpoints.mypage)).resolves.toEqual(mypage);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/mypage');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    const statements = { success: true, message: 'OK', data: { today: '2026-11-10' } };
    vi.stubGlobal('fetch', respond(200, statements));
    await expect(callEndpoint(billEndpoints.statements)).resolves.toEqual(statements);
  });

  it('passes raw arrays and booleans through', async () => {
    setToken('tok');
    vi.stubGlobal('fetch', respond(200, [1, 2]));
    await expect(callEndpoint(paymentEndpoints.pointHistory)).resolves.toEqual([1, 2]);
    vi.stubGlobal('fetch', respond(200, true));
    await expect(callEndpoint(checkinEndpoints.today)).resolves.toBe(true);
    vi.stubGlobal('fetch', respond(200, false));
    await expect(callEndpoint(checkinEndpoints.today)).resolves.toBe(false);
  });

  it('throws the message and code of a 200 success:false body, or the default text (A4)', async () => {
    setToken('tok');
    const capped = {
      success: false,
      code: 'DAILY_LIMIT_REACHED',
      message: '한도',
      earnedPoints: 0,
      todayTotalPoints: 100,
    };
    vi.stubGlobal('fetch', respond(200, capped));
    await expect(
      callEndpoint(shortsEndpoints.earn, { body: { shortsId: 1, watchedSeconds: 3 } }),
    ).rejects.toMatchObject({
      status: 200,
      code: 'DAILY_LIMIT_REACHED',
      message: '한도',
    });
    vi.stubGlobal('fetch', respond(200, { success: false }));
    await expect(callEndpoint(shortsEndpoints.earn, { body: { shortsId: 1, watchedSeconds: 3 } })).rejects.toThrow(
      '요청에 실패했습니다.',
    );
  });

  it('clears the token and goes to /login on 401', async () => {
    setToken('expired');
    vi.stubGlobal('fetch', respond(401, { success: false, code: 'UNAUTHORIZED', message: '인증이 필요합니다.' }));
    await expect(callEndpoint(paymentEndpoints.mypage)).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('keeps the session on a business 403 such as a suspended account', async () => {
    setToken('tok');
    vi.stubGlobal('fetch', respond(403, { success: false, code: 'ACCOUNT_SUSPENDED', message: '연체' }));
    const body = { codeType: 'pincode', value: '123456' } as const;
    await expect(callEndpoint(paymentEndpoints.validate, { body })).rejects.toMatchObject({
      status: 403,
      code: 'ACCOUNT_SUSPENDED',
    });
    expect(getToken()).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('warns and goes to /login when a customer endpoint is called without a token', async () => {
    const fetchMock = respond(200, {});
    vi.stubGlobal('fetch', fetchMock);
    await expect(callEndpoint(paymentEndpoints.mypage)).rejects.toMatchObject({ code: 'LOGIN_REQUIRED' });
    // The app's toast, never a native alert.
    expect(currentToast()?.message).toBe('로그인 후 이용 가능합니다.');
    expect(alertSpy).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('after the user logs out here, a read without a token is refused quietly; a write still asks for a login', async () => {
    setToken('tok');
    logout();
    dismissToast();
    const fetchMock = respond(200, {});
    vi.stubGlobal('fetch', fetchMock);
    // A signed-in screen committed just before the logout may still start its queries: no second message.
    await expect(callEndpoint(paymentEndpoints.mypage)).rejects.toMatchObject({ code: 'LOGIN_REQUIRED' });
    expect(currentToast()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    const body = { codeType: 'pincode', value: '123456' } as const;
    await expect(callEndpoint(paymentEndpoints.validate, { body })).rejects.toMatchObject({ code: 'LOGIN_REQUIRED' });
    expect(currentToast()?.message).toBe('로그인 후 이용 가능합니다.');
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(fetchMock).not.toHaveBeenCalled();
    clearToken(); // ends "logged out here" for the tests that follow
  });

  it('calls /auth and the public feed without a token, and sends the token to the feed when held', async () => {
    const fetchMock = respond(200, { accessToken: 't' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(callEndpoint(authEndpoints.login, { body: { emailId: 'a@b.kr', pwd: 'x' } })).resolves.toEqual({
      accessToken: 't',
    });
    const feed = respond(200, { success: true, message: 'OK', data: [], page: 1, size: 5, hasNext: false });
    vi.stubGlobal('fetch', feed);
    await callEndpoint(shortsEndpoints.publicFeed, { query: { page: 1, size: 5 } });
    setToken('held');
    await callEndpoint(shortsEndpoints.publicFeed, { query: { page: 1, size: 5 } });
    const calls = feed.mock.calls as unknown as Array<[string, { headers: Record<string, string> }]>;
    expect(calls.map(([url]) => url)).toEqual(Array(2).fill('/api/public/shorts/feeds?page=1&size=5'));
    expect(calls.map(([, init]) => init.headers.authorization)).toEqual([undefined, 'Bearer held']);
  });

  it('reports a timeout as a Korean network error', async () => {
    setToken('tok');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new DOMException('timed out', 'TimeoutError');
      }),
    );
    await expect(callEndpoint(paymentEndpoints.mypage)).rejects.toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('retries a read by itself while the server answers 503 SERVICE_UNAVAILABLE, and never repeats a write', async () => {
    setToken('tok');
    const outage = { success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시 시도해주세요.' };
    const mypage = { name: '오굿', emailId: 'a@b.kr', gradeName: 'bronze', pointPercent: 0.2, gradePoint: 0 };
    const unavailable = () => new Response(JSON.stringify(outage), { status: 503, headers: { 'retry-after': '0' } });
    const read = vi
      .fn()
      .mockResolvedValueOnce(unavailable())
      .mockResolvedValueOnce(unavailable())
      .mockResolvedValueOnce(new Response(JSON.stringify(mypage), { status: 200 }));
    vi.stubGlobal('fetch', read);
    await expect(callEndpoint(paymentEndpoints.mypage)).resolves.toEqual(mypage);
    expect(read).toHaveBeenCalledTimes(3);

    // A read that stays unavailable gives up after two more tries, with the calm message and its code.
    const down = vi.fn(async () => unavailable());
    vi.stubGlobal('fetch', down);
    await expect(callEndpoint(paymentEndpoints.mypage)).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: '잠시 후 다시 시도해주세요.',
    });
    expect(down).toHaveBeenCalledTimes(3);

    const write = vi.fn(async () => unavailable());
    vi.stubGlobal('fetch', write);
    await expect(callEndpoint(checkinEndpoints.roulette)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(write).toHaveBeenCalledTimes(1);
    expect(getToken()).toBe('tok');
  });

  it('sends multipart uploads as FormData without a timeout', async () => {
    setToken('tok');
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const fetchMock = respond(200, { success: true, message: 'OK', data: { shortsId: 1 } });
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('title', '제목');
    await callEndpoint(shortsEndpoints.upload, { body: form });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
    expect(timeout).not.toHaveBeenCalled();
    await callEndpoint(paymentEndpoints.mypage);
    expect(timeout).toHaveBeenCalledWith(10_000);
    timeout.mockRestore();
  });
});

const oneShort = defineEndpoint({
  method: 'GET',
  path: '/api/public/things/:id/parts/:partId',
  params: z.object({ id: z.number(), partId: z.string() }),
  query: z.object({ page: z.number().optional() }),
  response: enveloped(z.object({ n: z.number() })),
  access: 'optional',
  summary: 'test',
  tags: ['test'],
});
const privateCall = defineEndpoint({
  method: 'POST',
  path: '/api/things',
  body: z.object({ a: z.string() }),
  response: z.object({ ok: z.boolean() }),
  access: 'customer',
  summary: 'test',
  tags: ['test'],
});
const merchantCall = defineEndpoint({
  method: 'POST',
  path: '/api/merchant/things',
  headers: z.object({ 'x-merchant-key': z.string() }),
  response: z.object({ ok: z.boolean() }),
  access: 'merchant',
  summary: 'test',
  tags: ['test'],
});

describe('callEndpoint', () => {
  it('fills path params, adds the query and resolves to the body as declared, envelope included', async () => {
    sessionStorage.clear();
    const fetchMock = respond(200, { success: true, message: 'OK', data: { n: 2 } });
    vi.stubGlobal('fetch', fetchMock);
    const body = await callEndpoint(oneShort, { params: { id: 7, partId: 'a b' }, query: { page: 2 } });
    expect(body.data.n).toBe(2);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/public/things/7/parts/a%20b?page=2');
    expect(init.method).toBe('GET');
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('sends the JSON body with the token and maps an error to the contract code', async () => {
    setToken('tok');
    const fetchMock = respond(422, { success: false, code: 'LIMIT_EXCEEDED', message: '한도가 부족합니다.' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(callEndpoint(privateCall, { body: { a: 'x' } })).rejects.toMatchObject({
      status: 422,
      code: 'LIMIT_EXCEEDED',
      message: '한도가 부족합니다.',
    });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe('{"a":"x"}');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(getToken()).toBe('tok');
  });

  it('turns a body that is not our error envelope (a proxy’s page) into REQUEST_FAILED', async () => {
    setToken('tok');
    vi.stubGlobal('fetch', respond(502, { code: 'SOMETHING_ELSE' }));
    await expect(callEndpoint(privateCall, { body: { a: 'x' } })).rejects.toMatchObject({
      status: 502,
      code: 'REQUEST_FAILED',
      message: '요청에 실패했습니다.',
    });
  });

  it('keeps a newer server’s code and message in our envelope, and refuses a code of another shape', async () => {
    setToken('tok');
    vi.stubGlobal('fetch', respond(409, { success: false, code: 'SOMETHING_NEWER', message: '새 규칙입니다.' }));
    await expect(callEndpoint(privateCall, { body: { a: 'x' } })).rejects.toMatchObject({
      status: 409,
      code: 'SOMETHING_NEWER',
      message: '새 규칙입니다.',
    });
    vi.stubGlobal('fetch', respond(409, { success: false, code: '<b>x</b>', message: '이상한 코드' }));
    await expect(callEndpoint(privateCall, { body: { a: 'x' } })).rejects.toMatchObject({ code: 'REQUEST_FAILED' });
  });

  it('calls the merchant API with its key only, and a merchant 401 keeps the customer session', async () => {
    setToken('customer-token');
    const fetchMock = respond(401, { success: false, code: 'INVALID_MERCHANT_KEY', message: '키' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(callEndpoint(merchantCall, { headers: { 'x-merchant-key': 'k' } })).rejects.toMatchObject({
      code: 'INVALID_MERCHANT_KEY',
    });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const headers = init.headers as Record<string, string>;
    expect(headers['x-merchant-key']).toBe('k');
    expect(headers.authorization).toBeUndefined();
    expect(getToken()).toBe('customer-token');
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('createCaller (the one caller factory)', () => {
  const thing = defineEndpoint({
    method: 'GET',
    path: '/api/things/:id',
    params: z.object({ id: z.number() }),
    response: z.object({ n: z.number() }),
    access: 'customer',
    summary: 'test',
    tags: ['test'],
  });
  const makeThing = defineEndpoint({
    method: 'POST',
    path: '/api/things',
    body: z.object({ a: z.string() }),
    response: z.object({ n: z.number() }),
    access: 'customer',
    summary: 'test',
    tags: ['test'],
  });
  const outage = { success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시 시도해주세요.' };
  const unavailable = () => new Response(JSON.stringify(outage), { status: 503, headers: { 'retry-after': '0' } });

  /** A caller on a policy of the test's own: its token, and every refusal it was told of. */
  function testCaller(overrides: Partial<SessionPolicy> = {}) {
    const refused: Array<{ status: number; code: string; sent: string | null }> = [];
    const missing = vi.fn();
    const call = createCaller({
      baseUrl: 'https://api.example',
      token: () => 'policy-token',
      needsToken: () => true,
      onMissingToken: missing,
      refused: (failure, _endpoint, sent) => refused.push({ status: failure.status, code: failure.code, sent }),
      ...overrides,
    });
    return { call, refused, missing };
  }

  it('reads the token the policy gives and prefixes its base URL', async () => {
    const fetchMock = respond(200, { n: 1 });
    vi.stubGlobal('fetch', fetchMock);
    const { call } = testCaller();
    await expect(call(thing, { params: { id: 4 } })).resolves.toEqual({ n: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.example/api/things/4');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer policy-token');
  });

  it('tells the policy of a 401 with the token it sent, and rejects with the envelope’s code and message', async () => {
    vi.stubGlobal('fetch', respond(401, { success: false, code: 'TOKEN_REVOKED', message: '다시 로그인해주세요.' }));
    const { call, refused } = testCaller();
    await expect(call(thing, { params: { id: 1 } })).rejects.toMatchObject({
      status: 401,
      code: 'TOKEN_REVOKED',
      message: '다시 로그인해주세요.',
    });
    expect(refused).toEqual([{ status: 401, code: 'TOKEN_REVOKED', sent: 'policy-token' }]);
  });

  it('tells the policy of a 403 too, and of no other failure', async () => {
    const { call, refused } = testCaller();
    vi.stubGlobal('fetch', respond(403, { success: false, code: 'ACCOUNT_SUSPENDED', message: '정지' }));
    await expect(call(thing, { params: { id: 1 } })).rejects.toMatchObject({ status: 403 });
    vi.stubGlobal('fetch', respond(422, { success: false, code: 'LIMIT_EXCEEDED', message: '한도' }));
    await expect(call(thing, { params: { id: 1 } })).rejects.toMatchObject({ status: 422 });
    expect(refused).toEqual([{ status: 403, code: 'ACCOUNT_SUSPENDED', sent: 'policy-token' }]);
  });

  it('without a token the policy needs, fails with LOGIN_REQUIRED before anything leaves', async () => {
    const fetchMock = respond(200, { n: 1 });
    vi.stubGlobal('fetch', fetchMock);
    const { call, missing, refused } = testCaller({ token: () => null });
    await expect(call(thing, { params: { id: 1 } })).rejects.toMatchObject({ status: 401, code: 'LOGIN_REQUIRED' });
    expect(missing).toHaveBeenCalledWith(thing);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(refused).toEqual([]);
  });

  it('repeats a read through 503 as many times as the policy says, then gives up; a write goes once', async () => {
    const { call, refused } = testCaller({ unavailableRetries: 1 });
    const read = vi.fn(async () => unavailable());
    vi.stubGlobal('fetch', read);
    await expect(call(thing, { params: { id: 1 } })).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      retryAfterMs: 0,
    });
    expect(read).toHaveBeenCalledTimes(2);

    const recovering = vi
      .fn()
      .mockResolvedValueOnce(unavailable())
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 3 }), { status: 200 }));
    vi.stubGlobal('fetch', recovering);
    await expect(call(thing, { params: { id: 1 } })).resolves.toEqual({ n: 3 });

    const write = vi.fn(async () => unavailable());
    vi.stubGlobal('fetch', write);
    await expect(call(makeThing, { body: { a: 'x' } })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(write).toHaveBeenCalledTimes(1);
    // An outage is not a refused session.
    expect(refused).toEqual([]);
  });
});
