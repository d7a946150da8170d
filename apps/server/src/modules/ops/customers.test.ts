import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, purchases, statements } from '../../db/schema';
import { withTx } from '../../db/tx';
import { DEMO_OPERATORS, disableDemoOperators, ensureDemoOperators } from '../../seed/demo-operators';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { noticesAfterDispatch } from '../../test/notice-helpers';
import { createRequest, pay, validatePin } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { recomputeSuspension } from '../bills/statements';
import { maskEmail, maskName } from './masking';

/** docs/rules/operations.md#O4–O6: what support and risk see and do, and the audit trail of it. */

let h: Harness;
let risk: Record<string, string>;
let support: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  risk = (await signedInOperator(h, 'RISK')).auth;
  support = (await signedInOperator(h, 'SUPPORT')).auth;
});
afterAll(() => h.close());

const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  h.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

async function auditOf(customerId: number) {
  return h.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetId, String(customerId)))
    .orderBy(auditLog.id);
}

describe('masking and reveal (O4)', () => {
  it('masks name, email and account by default', async () => {
    expect(maskName('김오굿')).toBe('김*굿');
    expect(maskName('남궁민수')).toBe('남**수');
    expect(maskEmail('demo@ohgood.kr')).toBe('de**@ohgood.kr');
    const { customerId, emailId } = await h.signUp({ name: '김오굿', account: '110123456789' });
    const found = await call('GET', `/api/ops/customers?q=${encodeURIComponent(emailId)}`, support);
    expect(found.statusCode).toBe(200);
    const row = found.json().items.find((r: { customerId: number }) => r.customerId === customerId);
    expect(row).toMatchObject({ name: '김*굿', account: '****6789' });
    expect(row.email).toBe(`${emailId.slice(0, 2)}**@example.com`);
    expect(JSON.stringify(found.json())).not.toContain(emailId);
    const byId = await call('GET', `/api/ops/customers?q=${customerId}`, support);
    expect(byId.json().items.map((r: { customerId: number }) => r.customerId)).toContain(customerId);
  });

  it('reveals one field, with an audit row carrying the reason', async () => {
    const { customerId, emailId } = await h.signUp();
    const res = await call('POST', `/api/ops/customers/${customerId}/reveal`, support, {
      field: 'email',
      reason: '본인 확인 전화 응대',
    });
    expect(res.json()).toEqual({ field: 'email', value: emailId });
    const [row] = await auditOf(customerId);
    expect(row).toMatchObject({ action: 'customer.reveal', role: 'SUPPORT', reason: '본인 확인 전화 응대' });
    expect(row?.after).toEqual({ field: 'email' });
  });

  it('refuses a reveal without a reason', async () => {
    const { customerId } = await h.signUp();
    const res = await call('POST', `/api/ops/customers/${customerId}/reveal`, support, { field: 'name' });
    expect(res.statusCode).toBe(400);
    expect(await auditOf(customerId)).toEqual([]);
  });
});

describe('risk actions (O5) and the audit trail (O6)', () => {
  it('a staff suspension is told as what it is: no overdue bill in the refusal, the notice or the lift', async () => {
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    await call('POST', `/api/ops/customers/${customer.customerId}/suspend`, risk, { reason: '명의 도용 의심 신고' });
    const request = await createRequest(h, merchant.headers, 1000);
    const refused = (await validatePin(h, customer.token, request.pinCode)).json();
    expect(refused).toMatchObject({
      code: 'ACCOUNT_SUSPENDED',
      message: '운영 정책에 따라 결제가 잠시 정지되었습니다. 고객센터로 문의해주세요.',
    });
    const status = await h.app.inject({
      method: 'GET',
      url: '/api/payment/statements',
      headers: bearer(customer.token),
    });
    expect(status.json().data).toMatchObject({ suspended: true, suspensionReason: 'STAFF', overdueAmount: 0 });
    await call('POST', `/api/ops/customers/${customer.customerId}/lift`, risk, { reason: '본인 확인 완료' });
    const told = (await noticesAfterDispatch(h, customer.customerId)).map((n) => n.body);
    expect(told).toEqual([
      '운영 정책에 따라 새 결제가 잠시 정지됐어요. 고객센터로 문의해 주세요.',
      '운영자 확인을 거쳐 결제 정지가 해제됐어요. 다시 결제할 수 있어요.',
    ]);
    expect(told.join(' ')).not.toContain('연체');
  });

  it('suspends and lifts with before → after in the audit trail; payments follow', async () => {
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    const suspended = await call('POST', `/api/ops/customers/${customer.customerId}/suspend`, risk, {
      reason: '명의 도용 의심 신고',
    });
    expect(suspended.json()).toMatchObject({ suspended: true, staffSuspended: true });
    const request = await createRequest(h, merchant.headers, 1000);
    expect((await validatePin(h, customer.token, request.pinCode)).json().code).toBe('ACCOUNT_SUSPENDED');

    const lifted = await call('POST', `/api/ops/customers/${customer.customerId}/lift`, risk, {
      reason: '본인 확인 완료',
    });
    expect(lifted.json()).toMatchObject({ suspended: false, staffSuspended: false });
    expect((await pay(h, merchant.headers, customer.token, 1000)).res.statusCode).toBe(200);

    const rows = await auditOf(customer.customerId);
    expect(rows.map((r) => r.action)).toEqual(['customer.suspend', 'customer.lift']);
    expect(rows[1]).toMatchObject({ role: 'RISK', reason: '본인 확인 완료' });
    expect(rows[1]?.before).toMatchObject({ suspended: true });
    expect(rows[1]?.after).toMatchObject({ suspended: false });
    // The customer page and its audit history show it.
    const page = await call('GET', `/api/ops/customers/${customer.customerId}`, support);
    expect(
      page
        .json()
        .suspensionHistory.map((e: { what: string }) => e.what)
        .join('\n'),
    ).toMatch(/운영자 해제/);
    const history = await call('GET', `/api/ops/customers/${customer.customerId}/audit`, support);
    expect(history.json().items.map((r: { action: string }) => r.action)).toEqual([
      'customer.lift',
      'customer.suspend',
    ]);
  });

  it('lifts an overdue suspension until that debt is settled; a refused action writes no audit row', async () => {
    const { customerId } = await h.signUp();
    await insertPurchase(h.database.db, { customerId, totalPrice: 5000, at: new Date('2026-09-10T03:00:00Z') });
    await h.database.db
      .update(statements)
      .set({ overdueAt: h.clock.now() })
      .where(eq(statements.customerId, customerId));
    await withTx(h.database.db, (tx) => recomputeSuspension(tx, customerId, h.clock.now()));
    const lift = () => call('POST', `/api/ops/customers/${customerId}/lift`, risk, { reason: '입금 확인 (계좌이체)' });
    expect((await lift()).json()).toMatchObject({ suspended: false, overdueLifted: true });
    // Anything that recomputes (a refund, a repayment) keeps the lift while the debt is open.
    expect(await withTx(h.database.db, (tx) => recomputeSuspension(tx, customerId, h.clock.now()))).toBe(false);
    // A new overdue statement ends it.
    expect(
      await withTx(h.database.db, (tx) => recomputeSuspension(tx, customerId, h.clock.now(), { newlyOverdue: true })),
    ).toBe(true);
    await withTx(h.database.db, (tx) => recomputeSuspension(tx, customerId, h.clock.now()));
    // Lifting someone who is not suspended is refused and leaves no trace.
    const other = await h.signUp();
    const refused = await call('POST', `/api/ops/customers/${other.customerId}/lift`, risk, { reason: '테스트 사유' });
    expect(refused.json().code).toBe('NOT_SUSPENDED');
    expect(await auditOf(other.customerId)).toEqual([]);
  });

  it('resets login lockouts so the customer can sign in again', async () => {
    const customer = await h.signUp();
    const login = (pwd: string) =>
      h.app.inject({ method: 'POST', url: '/auth', payload: { emailId: customer.emailId, pwd } });
    for (let i = 0; i < 5; i++) await login('wrong-password1');
    expect((await login('password1!')).statusCode).toBe(429);
    const page = await call('GET', `/api/ops/customers/${customer.customerId}`, support);
    // Failures count per account and per (account, address): both counters are the customer's lockout.
    const loginFailure = expect.objectContaining({ key: '로그인 실패', count: 5 });
    expect(page.json().lockouts).toEqual([loginFailure, loginFailure]);
    const reset = await call('POST', `/api/ops/customers/${customer.customerId}/lockouts/reset`, risk, {
      reason: '고객 요청: 비밀번호 기억남',
    });
    expect(reset.json()).toEqual({ cleared: 2 });
    expect((await login('password1!')).statusCode).toBe(200);
    // The audit row says which counters went and how far they had counted, never the e-mail or address in
    // their keys (support reads the audit trail).
    const [row] = (await auditOf(customer.customerId)).filter((r) => r.action === 'customer.reset-lockouts');
    expect(row?.before).toEqual(
      expect.arrayContaining([
        { kind: 'login-fail:account', count: 5 },
        { kind: 'login-fail:account-ip', count: 5 },
      ]),
    );
    expect(JSON.stringify(row)).not.toContain(customer.emailId);
    expect(JSON.stringify(row)).not.toContain('127.0.0.1');
  });

  it('ends every session of the customer: old tokens are refused, a new login works', async () => {
    const customer = await h.signUp();
    expect((await call('GET', '/api/mypage', bearer(customer.token))).statusCode).toBe(200);
    const res = await call('POST', `/api/ops/customers/${customer.customerId}/sessions/revoke`, risk, {
      reason: '기기 분실 신고',
    });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/api/mypage', bearer(customer.token))).statusCode).toBe(401);
    h.clock.advance(1000);
    const again = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: customer.emailId, pwd: 'password1!' },
    });
    expect((await call('GET', '/api/mypage', bearer(again.json().accessToken))).statusCode).toBe(200);
  });

  it("refunds on the merchant's behalf through the merchant's own refund, audited in its transaction", async () => {
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    expect((await pay(h, merchant.headers, customer.token, 3000)).res.statusCode).toBe(200);
    const [line] = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customer.customerId));
    const refund = () =>
      call('POST', `/api/ops/payments/${line?.id}/refund`, risk, { reason: '가맹점 요청: 이중 결제 취소' });
    expect((await refund()).json()).toEqual({ paymentId: line?.id, status: 'REFUNDED' });
    const [after] = await h.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.id, line?.id ?? 0));
    expect(after?.status).toBe('REFUNDED');
    const rows = (await auditOf(customer.customerId)).filter((r) => r.action === 'payment.refund');
    expect(rows).toHaveLength(1);
    // Past the merchant's 90-day window the same rule refuses it, and no audit row is written.
    const other = await h.signUp();
    expect((await pay(h, merchant.headers, other.token, 2000)).res.statusCode).toBe(200);
    const [old] = await h.database.db.select().from(purchases).where(eq(purchases.customerId, other.customerId));
    h.clock.advance(91 * 86_400_000);
    // (The operator signs in again: a console session does not outlive a working day.)
    const later = (await signedInOperator(h, 'RISK')).auth;
    const late = await call('POST', `/api/ops/payments/${old?.id}/refund`, later, { reason: '늦은 환불 요청' });
    expect(late.json().code).toBe('REFUND_WINDOW_PASSED');
    expect((await auditOf(other.customerId)).filter((r) => r.action === 'payment.refund')).toEqual([]);
  });

  it('keeps the audit trail append-only: the app cannot change or delete a row', async () => {
    const { customerId } = await h.signUp();
    const fresh = (await signedInOperator(h, 'SUPPORT')).auth;
    const reveal = await call('POST', `/api/ops/customers/${customerId}/reveal`, fresh, {
      field: 'name',
      reason: '확인 필요',
    });
    expect(reveal.statusCode).toBe(200);
    const db = h.database.db;
    await expect(
      db
        .update(auditLog)
        .set({ reason: '바꿈' })
        .where(eq(auditLog.targetId, String(customerId))),
    ).rejects.toThrow();
    await expect(db.delete(auditLog).where(eq(auditLog.targetId, String(customerId)))).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log`)).rejects.toThrow();
    expect((await auditOf(customerId))[0]?.reason).toBe('확인 필요');
  });
});

describe('demo operators (E6)', () => {
  it('seeds one per role with the published secrets, and disables them when demo data is off', async () => {
    await ensureDemoOperators(h.database.db, h.clock.now());
    await ensureDemoOperators(h.database.db, h.clock.now());
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/sign-in',
      payload: { email: DEMO_OPERATORS[0]?.email, password: 'ohgood-ops-123!' },
    });
    expect(res.statusCode).toBe(200);
    expect(await disableDemoOperators(h.database.db, h.clock.now())).toBe(4);
    const refused = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/sign-in',
      payload: { email: DEMO_OPERATORS[0]?.email, password: 'ohgood-ops-123!' },
    });
    expect(refused.statusCode).toBe(401);
  });
});
