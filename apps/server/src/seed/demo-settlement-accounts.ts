import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { merchants, staff } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { StaffPrincipal } from '../modules/ops/staff-principal';
import { createSettlementOpsActions } from '../modules/settlements/ops-actions';
import { DEMO_OPERATORS } from './demo-operators';

/** Each demo merchant's fee (basis points) and settlement account: demo data only, not a real account. */
const DEMO_TERMS: Record<string, { feeBps: number; account: string }> = {
  '스타벅스 강남점': { feeBps: 250, account: '5550000000001' },
  배달의민족: { feeBps: 300, account: '5550000000002' },
  올리브영: { feeBps: 250, account: '5550000000003' },
  'SKT 통신요금': { feeBps: 150, account: '5550000000004' },
  카카오T: { feeBps: 250, account: '5550000000005' },
  GS25: { feeBps: 200, account: '5550000000006' },
  'CGV 용산': { feeBps: 250, account: '5550000000007' },
  동네세탁소: { feeBps: 180, account: '5550000000008' },
};
const DEMO_BANK = '신한';
const REASON = '데모 데이터';

/**
 * Every demo merchant gets its fee, its cycle (D+1) and a verified settlement account (docs/rules/demo-data.md),
 * through the console's own actions: the demo admin sets them and the demo risk operator verifies the account,
 * so the audit trail is a real one and a new user sees settlements paid out. A merchant already verified is
 * left as it is (an operator's later change wins); one set but not verified (a seed cut short) is verified.
 */
export async function ensureDemoSettlementAccounts(db: Db, clock: Clock): Promise<void> {
  const rows = await db
    .select()
    .from(merchants)
    .where(inArray(merchants.name, Object.keys(DEMO_TERMS)));
  const open = rows.filter((row) => row.settlementAccountVerifiedAt === null);
  if (open.length === 0) return;
  const actions = createSettlementOpsActions(db, clock);
  const admin = await demoOperator(db, 'ADMIN');
  const risk = await demoOperator(db, 'RISK');
  for (const merchant of open) {
    const terms = DEMO_TERMS[merchant.name];
    if (!terms) continue;
    if (merchant.settlementAccount === null) {
      await actions.setTerms(admin, merchant.id, { feeBps: terms.feeBps, cycleDays: 1, reason: REASON });
      await actions.setAccount(admin, merchant.id, { bank: DEMO_BANK, account: terms.account, reason: REASON });
    }
    await actions.verifyAccount(risk, merchant.id, REASON);
  }
}

/** A demo operator as the console would carry it (the seed acts in their name, without a session). */
async function demoOperator(db: Db, role: 'ADMIN' | 'RISK'): Promise<StaffPrincipal> {
  const email = DEMO_OPERATORS.find((o) => o.role === role)?.email ?? '';
  const [row] = await db
    .select()
    .from(staff)
    .where(inArray(staff.email, [email]));
  if (!row) throw new Error(`demo operator ${email} missing: seed the operators first`);
  return { sessionId: 'demo-seed', staffId: row.id, email: row.email, name: row.name, role, totp: true };
}
