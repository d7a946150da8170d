import {
  AUTOPAY_CONSENT,
  type AutopayPendingReason,
  type AutopaySetting,
  type AutopayState,
  type OpenVerification,
  VERIFICATION_RULES,
} from '@ohgood/contract/autopay';
import { maskAccount } from '@ohgood/contract/bank';
import { and, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import { customerNotFound } from '../../db/locks';
import { accountVerifications, autopayConsents, customers } from '../../db/schema';
import { type Executor, rowsOf } from '../../db/tx';

/*
 * Where a customer's autopay stands (docs/rules/bills-and-grades.md#B21–#B23): the switch, the consent in force
 * and the account's 1원 인증. Only a customer whose switch is on, whose latest consent is to the current words
 * for the current account, and whose current account they verified is debited; the SQL below is that rule
 * for the daily plan and the reminders, and `readStanding` the same rule for the screens.
 */

/** The customer (`customer` is its row alias) verified the account they have linked now. */
export const accountVerifiedSql = (customer: SQL) =>
  sql`exists (select 1 from ${accountVerifications} v where v.customer_id = ${customer}.id and v.status = 'VERIFIED'
    and v.bank = ${customer}.account_name and v.account = ${customer}.account)`;

/** The customer's latest consent record grants the current words for the current account. */
export const consentInForceSql = (customer: SQL) =>
  sql`coalesce((select k.action = 'GRANTED' and k.wording_version = ${AUTOPAY_CONSENT.version}
    and k.bank = ${customer}.account_name and k.account = ${customer}.account
    from ${autopayConsents} k where k.customer_id = ${customer}.id order by k.id desc limit 1), false)`;

/** Autopay really debits this customer: switch on, consent in force, account verified. */
export const autopayActiveSql = (customer: SQL) =>
  sql`(${customer}.autopay and ${consentInForceSql(customer)} and ${accountVerifiedSql(customer)})`;

export interface Standing {
  autopay: boolean;
  bank: string;
  account: string;
  consentInForce: boolean;
  verified: boolean;
  consentVersion: string | null;
}

/** The customer's switch, account, consent and verification, as the rule above reads them. */
export async function readStanding(executor: Executor, customerId: number): Promise<Standing> {
  const [row] = await rowsOf<{
    autopay: boolean;
    bank: string;
    account: string;
    consent_in_force: boolean;
    verified: boolean;
  }>(
    executor,
    sql`select c.autopay, c.account_name as bank, c.account,
        ${consentInForceSql(sql`c`)} as consent_in_force, ${accountVerifiedSql(sql`c`)} as verified
      from ${customers} c where c.id = ${customerId}`,
  );
  if (!row) throw customerNotFound();
  return {
    autopay: row.autopay,
    bank: row.bank,
    account: row.account,
    consentInForce: row.consent_in_force,
    verified: row.verified,
    consentVersion: row.consent_in_force ? AUTOPAY_CONSENT.version : null,
  };
}

export function stateOf(standing: Standing): { state: AutopayState; pendingReason: AutopayPendingReason | null } {
  if (!standing.autopay) return { state: 'off', pendingReason: null };
  if (!standing.consentInForce) return { state: 'pending', pendingReason: 'consent' };
  if (!standing.verified) return { state: 'pending', pendingReason: 'verification' };
  return { state: 'on', pendingReason: null };
}

/** The code waiting to be typed (sent, not expired, not used up), with when a new one may be asked for. */
async function openVerification(executor: Executor, customerId: number, now: Date): Promise<OpenVerification | null> {
  const [open] = await executor
    .select({
      expiresAt: accountVerifications.expiresAt,
      tries: accountVerifications.tries,
      sentAt: accountVerifications.sentAt,
    })
    .from(accountVerifications)
    .where(
      and(
        eq(accountVerifications.customerId, customerId),
        eq(accountVerifications.status, 'SENT'),
        gt(accountVerifications.expiresAt, now),
      ),
    )
    .orderBy(desc(accountVerifications.id))
    .limit(1);
  if (!open) return null;
  return {
    expiresAt: open.expiresAt.toISOString(),
    triesLeft: Math.max(0, VERIFICATION_RULES.maxTries - open.tries),
    resendAt: new Date(open.sentAt.getTime() + VERIFICATION_RULES.resendSeconds * 1000).toISOString(),
  };
}

/** The answer of `GET /api/payment/autopay`: the fields it always had, and where autopay stands. */
export async function readSetting(executor: Executor, customerId: number, now: Date): Promise<AutopaySetting> {
  const standing = await readStanding(executor, customerId);
  const { state, pendingReason } = stateOf(standing);
  return {
    autopay: standing.autopay,
    account: maskAccount(standing.account),
    accountName: standing.bank,
    state,
    pendingReason,
    verified: standing.verified,
    consentVersion: standing.consentVersion,
    verification: standing.verified ? null : await openVerification(executor, customerId, now),
  };
}
