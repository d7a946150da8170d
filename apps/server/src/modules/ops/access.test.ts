import { type Endpoint, isStaffAccess, STAFF_ROLES, type StaffRole } from '@ohgood/contract/endpoint';
import { staffEndpoints } from '@ohgood/contract/endpoints';
import { merchantUserOpsEndpoints } from '@ohgood/contract/merchant-portal';
import { monthEndEndpoints, rangeExportEndpoints } from '@ohgood/contract/month-end';
import { opsEndpoints } from '@ohgood/contract/ops';
import { opsSettlementEndpoints } from '@ohgood/contract/settlements';
import { opsWebhookEndpoints } from '@ohgood/contract/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { type EndpointSample, injectEndpoint } from '../../test/inject-endpoint';
import { createOperator, passwordOnly, signedInOperator, totpAt } from '../../test/staff-fixture';

/**
 * docs/rules/operations.md#O1–O2, table-driven over the contract's declarations: every console endpoint declares
 * who may call it, and the server refuses everyone else — the other roles (403), customer tokens, no token
 * and a session that has not passed the second factor (401). A new endpoint is walked here automatically.
 */

/** The console endpoints anyone may call: signing in and enrolling. Anything else public is a mistake. */
const PUBLIC_CONSOLE = new Set<Endpoint>([opsEndpoints.signIn, opsEndpoints.enrolment, opsEndpoints.enrol]);

/** A call that reaches the guard: path params filled, no body (the guard runs before validation). */
function sampleOf(endpoint: Endpoint, headers: Record<string, string>): EndpointSample {
  const params = Object.fromEntries(
    [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => [
      m[1] as string,
      m[1] === 'token' ? 'x'.repeat(30) : 999_999,
    ]),
  );
  return { headers, params };
}

let h: Harness;
const tokens = {} as Record<StaffRole, Record<string, string>>;
let customer: Record<string, string>;
let pending: Record<string, string>;

beforeAll(async () => {
  h = await createHarness({
    // A console route someone registered without declaring roles: the guard must refuse it to everyone.
    extend: (app) => app.get('/api/ops/undeclared', async () => ({ leaked: true })),
  });
  for (const role of STAFF_ROLES) tokens[role] = (await signedInOperator(h, role)).auth;
  customer = bearer((await h.signUp()).token);
  const half = await createOperator(h, 'ADMIN');
  pending = bearer(await passwordOnly(h, half.email));
});
afterAll(() => h.close());

const declared = staffEndpoints.filter((e) => isStaffAccess(e.access));
const named = (e: Endpoint) => `${e.method} ${e.path}`;

describe('console access, by the contract (O1)', () => {
  it('declares every console endpoint under /api/ops with roles, pending-only or as one of the sign-in steps', () => {
    for (const endpoint of staffEndpoints) {
      expect(endpoint.path.startsWith('/api/ops/'), named(endpoint)).toBe(true);
      if (endpoint.access === 'public') expect(PUBLIC_CONSOLE.has(endpoint), named(endpoint)).toBe(true);
      else if (endpoint.access === 'staff-pending') expect(endpoint).toBe(opsEndpoints.verifyTotp);
      else {
        expect(isStaffAccess(endpoint.access), named(endpoint)).toBe(true);
        if (isStaffAccess(endpoint.access)) {
          expect(endpoint.access.staff.length).toBeGreaterThan(0);
          // ADMIN may do everything (O1).
          expect(endpoint.access.staff).toContain('ADMIN');
        }
      }
    }
    expect(declared.length).toBeGreaterThanOrEqual(20);
  });

  it.each(declared.map((e) => [named(e), e] as const))(
    '%s refuses the roles it does not name',
    async (_n, endpoint) => {
      if (!isStaffAccess(endpoint.access)) throw new Error('not a console endpoint');
      for (const role of STAFF_ROLES.filter(
        (r) => !(endpoint.access as { staff: readonly StaffRole[] }).staff.includes(r),
      )) {
        const res = await injectEndpoint(h.app, endpoint, sampleOf(endpoint, tokens[role]));
        expect(res.status, role).toBe(403);
      }
    },
  );

  it.each(declared.map((e) => [named(e), e] as const))(
    '%s refuses customer tokens, no token and a session without TOTP',
    async (_n, endpoint) => {
      for (const headers of [customer, {}, pending]) {
        const res = await injectEndpoint(h.app, endpoint, sampleOf(endpoint, headers));
        expect(res.status).toBe(401);
      }
    },
  );

  it.each(declared.filter((e) => e !== opsEndpoints.signOut).map((e) => [named(e), e] as const))(
    '%s lets the roles it names past the guard',
    async (_n, endpoint) => {
      if (!isStaffAccess(endpoint.access)) throw new Error('not a console endpoint');
      for (const role of endpoint.access.staff) {
        const res = await injectEndpoint(h.app, endpoint, sampleOf(endpoint, tokens[role]));
        expect([401, 403], `${role}: ${JSON.stringify(res.body)}`).not.toContain(res.status);
      }
    },
  );

  it('opens the money exports to those who read customers, the books to risk and admin (O14–O15)', () => {
    const roles = (endpoint: Endpoint) => (isStaffAccess(endpoint.access) ? [...endpoint.access.staff] : []);
    for (const endpoint of Object.values(rangeExportEndpoints)) {
      const expected = endpoint === monthEndEndpoints.exportAuditLog ? ['RISK', 'ADMIN'] : ['SUPPORT', 'RISK', 'ADMIN'];
      expect(roles(endpoint), named(endpoint)).toEqual(expected);
    }
    expect(roles(monthEndEndpoints.monthEndReport)).toEqual(['RISK', 'ADMIN']);
    expect(roles(monthEndEndpoints.exportMonthEnd)).toEqual(['RISK', 'ADMIN']);
    for (const endpoint of Object.values(monthEndEndpoints)) expect(staffEndpoints).toContain(endpoint);
  });

  it('lets risk read merchants, their settlement and webhooks and hold payouts; the rest of merchants is the admin’s (O7, M1, M6, W10)', () => {
    const roles = (endpoint: Endpoint) => (isStaffAccess(endpoint.access) ? [...endpoint.access.staff] : []);
    const risk = [
      opsEndpoints.merchants,
      opsSettlementEndpoints.merchantSettlement,
      opsSettlementEndpoints.verifySettlementAccount,
      opsSettlementEndpoints.holdPayouts,
      opsSettlementEndpoints.releasePayouts,
      opsWebhookEndpoints.merchantWebhookHealth,
    ];
    for (const endpoint of risk) expect(roles(endpoint), named(endpoint)).toEqual(['RISK', 'ADMIN']);
    const admin = [
      opsEndpoints.merchant,
      opsEndpoints.createMerchant,
      opsEndpoints.disableMerchant,
      opsEndpoints.rotateMerchantKey,
      opsSettlementEndpoints.setSettlementTerms,
      opsSettlementEndpoints.setSettlementAccount,
      ...Object.values(merchantUserOpsEndpoints),
    ];
    for (const endpoint of admin) expect(roles(endpoint), named(endpoint)).toEqual(['ADMIN']);
    for (const endpoint of [...risk, ...admin]) expect(staffEndpoints).toContain(endpoint);
  });

  it('refuses a console route that declares no roles, even to an admin', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/ops/undeclared', headers: tokens.ADMIN });
    expect(res.statusCode).toBe(403);
  });
});

describe('console tokens and sessions (O2)', () => {
  it('never accepts a console token on a customer endpoint', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/mypage', headers: tokens.ADMIN });
    expect(res.statusCode).toBe(401);
  });

  it('lets a pending session only take the TOTP step, and a code only once', async () => {
    const operator = await createOperator(h, 'SUPPORT');
    const token = await passwordOnly(h, operator.email);
    const code = await totpAt(h, operator.totpSecret);
    const step = (auth: string, body: { code: string }) =>
      h.app.inject({ method: 'POST', url: '/api/ops/auth/totp', headers: bearer(auth), payload: body });
    expect((await step(token, { code: code === '000000' ? '111111' : '000000' })).statusCode).toBe(401);
    expect((await step(token, { code })).statusCode).toBe(200);
    // The same code again, for a second session of the same operator: refused (replay).
    const second = await passwordOnly(h, operator.email);
    const replay = await step(second, { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('INVALID_TOTP');
    expect((await h.app.inject({ method: 'GET', url: '/api/ops/me', headers: bearer(token) })).json().role).toBe(
      'SUPPORT',
    );
  });

  it('ends a session after 30 idle minutes, and on sign-out', async () => {
    const operator = await signedInOperator(h, 'SUPPORT');
    const me = () => h.app.inject({ method: 'GET', url: '/api/ops/me', headers: operator.auth });
    h.clock.advance(29 * 60_000);
    expect((await me()).statusCode).toBe(200);
    h.clock.advance(29 * 60_000);
    expect((await me()).statusCode).toBe(200);
    h.clock.advance(31 * 60_000);
    expect((await me()).statusCode).toBe(401);
    const other = await signedInOperator(h, 'RISK');
    await h.app.inject({ method: 'POST', url: '/api/ops/auth/sign-out', headers: other.auth });
    expect((await h.app.inject({ method: 'GET', url: '/api/ops/me', headers: other.auth })).statusCode).toBe(401);
  });

  it('limits wrong passwords like a customer login', async () => {
    const operator = await createOperator(h, 'SUPPORT');
    const attempt = (password: string) =>
      h.app.inject({ method: 'POST', url: '/api/ops/auth/sign-in', payload: { email: operator.email, password } });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    expect((await attempt('wrong-password')).statusCode).toBe(429);
  });
});
