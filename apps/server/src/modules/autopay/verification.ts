import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AUTOPAY_MSG, AUTOPAY_RULES, VERIFICATION_RULES } from '@ohgood/contract/autopay';
import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { accountVerifications } from '../../db/schema';
import { isUniqueViolation, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, tooMany, unprocessable } from '../../lib/errors';
import { type BankGateway, VERIFICATION_DEPOSIT, withinDeadline } from '../bank/gateway';
import { readStanding } from './standing';

/*
 * 1원 인증 (docs/rules/bills-and-grades.md#B22–#B23, ADR 0198): a code goes to the customer's linked account as
 * the depositor name of a 1원 deposit, so only someone who can see that account's history can type it back.
 * Only an HMAC of the code is stored; every try is counted before the code is compared, under the customer's
 * lock, so parallel guesses are checked one at a time and never more than `maxTries`.
 */

const ONE_OWNER = 'account_verifications_one_owner_key';

/** The depositor name the bank shows for a code: '오굿' and the digits, short enough for any bank app. */
/** The bank key of a code's deposit: its row, so asking again never deposits twice (reconciliation reads it). */
export const verificationKeyOf = (id: number) => `account-verification:${id}`;

export const depositorNameOf = (code: string) => `${VERIFICATION_RULES.depositorPrefix}${code}`;

export interface VerificationDeps {
  db: Db;
  clock: Clock;
  bank: BankGateway;
  /** The key of the codes' HMAC (derived from the server's secret; never stored next to the hashes). */
  codeKey: Buffer;
  /** A bank call past this answers unknown (AUTOPAY_RULES.bankTimeoutSeconds by default). */
  bankTimeoutMs?: number;
}

export function createVerification(deps: VerificationDeps) {
  const { db, clock, bank, codeKey } = deps;
  const hashOf = (customerId: number, code: string) =>
    createHmac('sha256', codeKey).update(`${customerId}:${code}`).digest();

  /** Another customer already owns this account (the unique index decides a race; this answers early). */
  async function ownedByOther(tx: Tx, customerId: number, bankCode: string, account: string) {
    const [row] = await tx
      .select({ id: accountVerifications.id })
      .from(accountVerifications)
      .where(
        and(
          eq(accountVerifications.bank, bankCode),
          eq(accountVerifications.account, account),
          eq(accountVerifications.status, 'VERIFIED'),
          ne(accountVerifications.customerId, customerId),
        ),
      );
    return row !== undefined;
  }

  /** Records a new code (replacing an open one) within the send limits, then has the bank deposit it. */
  async function send(customerId: number): Promise<void> {
    const now = clock.now();
    const sent = await withTx(db, async (tx) => {
      await lockCustomer(tx, customerId);
      const standing = await readStanding(tx, customerId);
      if (!standing.consentInForce) throw conflict('AUTOPAY_CONSENT_REQUIRED', AUTOPAY_MSG.consentRequired);
      if (standing.verified) throw conflict('ACCOUNT_ALREADY_VERIFIED', AUTOPAY_MSG.alreadyVerified);
      if (await ownedByOther(tx, customerId, standing.bank, standing.account)) {
        throw conflict('ACCOUNT_VERIFIED_BY_OTHER', AUTOPAY_MSG.accountTaken);
      }
      const recent = await tx
        .select({ sentAt: accountVerifications.sentAt })
        .from(accountVerifications)
        .where(
          and(
            eq(accountVerifications.customerId, customerId),
            gt(accountVerifications.sentAt, new Date(now.getTime() - 24 * 3_600_000)),
          ),
        )
        .orderBy(desc(accountVerifications.sentAt));
      const last = recent[0]?.sentAt;
      if (last && now.getTime() - last.getTime() < VERIFICATION_RULES.resendSeconds * 1000) {
        throw tooMany('VERIFICATION_TOO_SOON', AUTOPAY_MSG.resendTooSoon);
      }
      if (recent.length >= VERIFICATION_RULES.codesPerDay)
        throw tooMany('VERIFICATION_TOO_MANY', AUTOPAY_MSG.tooManyCodes);
      await tx
        .update(accountVerifications)
        .set({ status: 'REPLACED' })
        .where(and(eq(accountVerifications.customerId, customerId), eq(accountVerifications.status, 'SENT')));
      const code = String(randomInt(0, 10 ** VERIFICATION_RULES.codeDigits)).padStart(
        VERIFICATION_RULES.codeDigits,
        '0',
      );
      const [row] = await tx
        .insert(accountVerifications)
        .values({
          customerId,
          bank: standing.bank,
          account: standing.account,
          codeHash: hashOf(customerId, code).toString('hex'),
          sentAt: now,
          expiresAt: new Date(now.getTime() + VERIFICATION_RULES.codeMinutes * 60_000),
        })
        .returning({ id: accountVerifications.id });
      if (!row) throw new Error('verification row missing after insert');
      // The code's won is booked as sent with its row (the reconciliation reads it so), posted to the ledger.
      await recordEvent(
        tx,
        { type: 'account.verification_deposited', customerId, verificationId: row.id, amount: VERIFICATION_DEPOSIT },
        now,
      );
      return { id: row.id, code, bank: standing.bank, account: standing.account };
    });
    // The deposit sits after the commit, as any bank call: its key is the code's row, so asking again never
    // deposits twice. No answer in time is taken as sent (the bank may have acted); a refusal frees nothing
    // but tells the customer, and the code counts as sent (it is no way around the send limits).
    const answer = await withinDeadline(
      bank.depositVerification({
        customerId,
        bank: sent.bank,
        account: sent.account,
        depositorName: depositorNameOf(sent.code),
        idempotencyKey: verificationKeyOf(sent.id),
      }),
      deps.bankTimeoutMs ?? AUTOPAY_RULES.bankTimeoutSeconds * 1000,
    );
    if (answer === 'credited' || answer === 'unknown') return;
    await refused(customerId, sent.id);
    throw unprocessable('BANK_DEPOSIT_FAILED', AUTOPAY_MSG.depositFailed);
  }

  /**
   * The bank refused a code's deposit: the row becomes NOT_DELIVERED and the won's posting is reversed, in one
   * transaction and only by the change of status, so a refusal heard twice reverses once.
   */
  async function refused(customerId: number, id: number): Promise<void> {
    await withTx(db, async (tx) => {
      const [changed] = await tx
        .update(accountVerifications)
        .set({ status: 'NOT_DELIVERED' })
        .where(and(eq(accountVerifications.id, id), eq(accountVerifications.status, 'SENT')))
        .returning({ id: accountVerifications.id });
      if (!changed) return;
      await recordEvent(
        tx,
        { type: 'account.verification_refused', customerId, verificationId: id, amount: VERIFICATION_DEPOSIT },
        clock.now(),
      );
    });
  }

  type Outcome = 'verified' | 'none' | 'expired' | 'locked' | { wrong: number };

  /** Checks a typed code against the open one; a wrong code's try stays counted (the answer is thrown after commit). */
  async function confirm(customerId: number, code: string): Promise<void> {
    const now = clock.now();
    let outcome: Outcome;
    try {
      outcome = await withTx(db, async (tx): Promise<Outcome> => {
        await lockCustomer(tx, customerId);
        const standing = await readStanding(tx, customerId);
        if (standing.verified) return 'verified';
        const [open] = await tx
          .select()
          .from(accountVerifications)
          .where(and(eq(accountVerifications.customerId, customerId), eq(accountVerifications.status, 'SENT')));
        if (!open) {
          const [last] = await tx
            .select({ status: accountVerifications.status })
            .from(accountVerifications)
            .where(eq(accountVerifications.customerId, customerId))
            .orderBy(desc(accountVerifications.id))
            .limit(1);
          return last?.status === 'LOCKED' ? 'locked' : 'none';
        }
        // A code sent to an account the customer has since changed proves nothing about the new one.
        if (open.bank !== standing.bank || open.account !== standing.account) return 'none';
        if (open.expiresAt.getTime() <= now.getTime()) return 'expired';
        const tries = open.tries + 1;
        await tx.update(accountVerifications).set({ tries }).where(eq(accountVerifications.id, open.id));
        if (!timingSafeEqual(hashOf(customerId, code), Buffer.from(open.codeHash, 'hex'))) {
          const left = VERIFICATION_RULES.maxTries - tries;
          if (left > 0) return { wrong: left };
          await tx.update(accountVerifications).set({ status: 'LOCKED' }).where(eq(accountVerifications.id, open.id));
          return 'locked';
        }
        if (await ownedByOther(tx, customerId, open.bank, open.account)) {
          throw conflict('ACCOUNT_VERIFIED_BY_OTHER', AUTOPAY_MSG.accountTaken);
        }
        await tx
          .update(accountVerifications)
          .set({ status: 'VERIFIED', verifiedAt: now })
          .where(eq(accountVerifications.id, open.id));
        return 'verified';
      });
    } catch (error) {
      // Two customers with the right code for one account at once: the index lets one commit.
      if (isUniqueViolation(error, ONE_OWNER)) throw conflict('ACCOUNT_VERIFIED_BY_OTHER', AUTOPAY_MSG.accountTaken);
      throw error;
    }
    if (outcome === 'verified') return;
    if (outcome === 'none') throw conflict('VERIFICATION_NOT_STARTED', AUTOPAY_MSG.noCode);
    if (outcome === 'expired') throw conflict('VERIFICATION_EXPIRED', AUTOPAY_MSG.codeExpired);
    if (outcome === 'locked') throw tooMany('VERIFICATION_LOCKED', AUTOPAY_MSG.codeLocked);
    throw badRequest('VERIFICATION_CODE_WRONG', AUTOPAY_MSG.codeWrong(outcome.wrong), 'code');
  }

  return { send, confirm };
}
