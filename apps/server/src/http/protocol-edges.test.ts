import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signUp());
});
afterAll(() => h.close());

it('accepts the bearer scheme in any letter case, and still refuses a header without a token', async () => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/mypage',
      headers: { authorization: `${scheme} ${token}` },
    });
    expect(res.statusCode, scheme).toBe(200);
  }
  for (const header of ['bearer', 'bearer ', `Basic ${token}`, `Bearertoken${token}`]) {
    const res = await h.app.inject({ method: 'GET', url: '/api/mypage', headers: { authorization: header } });
    expect(res.statusCode, header).toBe(401);
  }
});

it('takes only decimal digits as an integer: point=0x5, 1e1, 0b1 and an empty value are refused', async () => {
  const final = (point: string) =>
    h.app.inject({
      method: 'POST',
      url: `/api/payment/final?point=${encodeURIComponent(point)}&requestId=${randomUUID()}`,
      headers: { authorization: `Bearer ${token}` },
    });
  for (const point of ['0x5', '1e1', '0b1', ' 5', '5.0', '']) {
    const res = await final(point);
    expect(res.statusCode, point).toBe(400);
    expect(res.json().code, point).toBe('VALIDATION_ERROR');
  }
  // A decimal point goes past validation to the payment itself (an unknown request here).
  const decimal = await final('5');
  expect(decimal.json().code).not.toBe('VALIDATION_ERROR');
  // Ids in paths follow the same rule.
  const hexId = await h.app.inject({ method: 'GET', url: '/api/public/shorts/0x5' });
  expect(hexId.statusCode).toBe(400);
});

it('answers a malformed URL with the one error shape and never echoes the path back', async () => {
  const probe = '/api/public/shorts/%c0<script>alert(1)</script>';
  const res = await h.app.inject({ method: 'GET', url: probe });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: '입력값이 올바르지 않습니다.' });
  expect(res.body).not.toContain('script');
  expect(res.body).not.toContain('%c0');
});
