import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    extend(app) {
      // A route with the default access, to prove default-deny without depending on a feature module.
      app.get('/api/test/whoami', async (request) => ({ customerId: request.customerId }));
    },
  });
});
afterAll(() => h.close());

const valid = {
  name: '홍길동',
  emailId: 'Hong@Example.com',
  pwd: 'secret12!',
  birth: '1992-05-06',
  account: '11122233344',
  accountName: '신한',
};

describe('register', () => {
  it('creates a bronze customer with a lower-cased email and an argon2id hash', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/public/register', payload: valid });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const [row] = await h.database.db.select().from(customers).where(eq(customers.id, body.data.customerId));
    expect(row?.email).toBe('hong@example.com');
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(row?.gradePoint).toBe(0);
    expect(row?.pointBalance).toBe(0);
    expect(row?.nickname).toMatch(/^사용자\d+$/);
  });

  it('refuses the same email in another case with 409', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/public/register',
      payload: { ...valid, emailId: 'HONG@example.COM' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'EMAIL_TAKEN' });
  });

  it.each([
    ['bad email', { emailId: 'not-an-email' }],
    ['password with a space', { pwd: 'secret 12!' }],
    ['short password', { pwd: 'a1!' }],
    ['unknown bank', { accountName: '농협' }],
    ['short account', { account: '12345' }],
    ['future birth', { birth: '2030-01-01' }],
    ['impossible date', { birth: '1999-02-30' }],
    ['empty name', { name: '  ' }],
    ['unknown field', { isAdmin: true }],
  ])('rejects %s with a Korean 400', async (_label, patch) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/public/register',
      payload: { ...valid, emailId: `x${Math.random()}@example.com`, ...patch },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/[가-힣]/);
  });
});

describe('login', () => {
  it('returns a JWT that opens guarded routes', async () => {
    const { token } = await h.signUp();
    expect(token.split('.')).toHaveLength(3);
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toMatchObject({ status: 'ok' });
  });

  it('reports the database engine on /health', async () => {
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded',
    });
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const { emailId } = await h.signUp();
    const wrong = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'wrongpass1' } });
    const unknown = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: 'nobody@example.com', pwd: 'wrongpass1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('locks an email after 5 failures in 10 minutes, then lets it in again', async () => {
    const { emailId } = await h.signUp({ pwd: 'rightpass1!' });
    for (let i = 0; i < 5; i++) {
      const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'wrongpass1' } });
      expect(res.statusCode).toBe(401);
    }
    const locked = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'rightpass1!' } });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    h.clock.advance(10 * 60 * 1000);
    const again = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'rightpass1!' } });
    expect(again.statusCode).toBe(200);
  });
});

describe('bearer guard', () => {
  it('rejects a missing, malformed or expired token with 401 in the error shape', async () => {
    const { token } = await h.signUp();
    const none = await h.app.inject({ method: 'GET', url: '/api/test/whoami' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const garbage = await h.app.inject({ method: 'GET', url: '/api/test/whoami', headers: bearer('abc.def.ghi') });
    expect(garbage.statusCode).toBe(401);
    const fresh = await h.app.inject({ method: 'GET', url: '/api/test/whoami', headers: bearer(token) });
    expect(fresh.json()).toEqual({ customerId: expect.any(Number) });
    h.clock.advance(12 * 60 * 60 * 1000 + 1000);
    const expired = await h.app.inject({ method: 'GET', url: '/api/test/whoami', headers: bearer(token) });
    expect(expired.statusCode).toBe(401);
    h.clock.advance(-(12 * 60 * 60 * 1000 + 1000));
  });

  it('keeps unknown API paths as 404 in the error shape, not the SPA', async () => {
    const { token } = await h.signUp();
    const res = await h.app.inject({ method: 'GET', url: '/api/nothing-here', headers: bearer(token) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('serves the OpenAPI document publicly', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/auth', '/api/public/register']));
  });
});
