import { AUTOPAY_CONSENT, AUTOPAY_MSG, type AutopaySetting } from '@ohgood/contract/autopay';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { autopayConsents, customers } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/errors';
import type { BankGateway } from '../bank/gateway';
import { readSetting, readStanding } from './standing';
import { createVerification } from './verification';

export interface AutopayServiceDeps {
  clock: Clock;
  bank: BankGateway;
  /** Key of the 1원 인증 codes' HMAC. */
  codeKey: Buffer;
}

/**
 * The customer's autopay switch, the consent it records and the 1원 인증 of the account it debits
 * (docs/rules/bills-and-grades.md#B15, #B21–#B23).
 */
export function createAutopayService(db: Db, deps: AutopayServiceDeps) {
  const { clock } = deps;
  const verification = createVerification({ db, ...deps });
  const read = (customerId: number): Promise<AutopaySetting> => readSetting(db, customerId, clock.now());

  /**
   * On: records consent to the words' version the customer saw (the current one, else refused), for the account
   * linked now. Off: records the withdrawal of a consent in force. Both append to the consent record in the
   * same transaction as the switch, on the app clock.
   */
  async function set(customerId: number, autopay: boolean, consentVersion?: string): Promise<AutopaySetting> {
    if (autopay && consentVersion === undefined) {
      throw badRequest('AUTOPAY_CONSENT_REQUIRED', AUTOPAY_MSG.consentRequired, 'consentVersion');
    }
    if (autopay && consentVersion !== AUTOPAY_CONSENT.version) {
      throw conflict('AUTOPAY_CONSENT_REQUIRED', AUTOPAY_MSG.consentOutdated, 'consentVersion');
    }
    await withTx(db, async (tx) => {
      await lockCustomer(tx, customerId);
      const standing = await readStanding(tx, customerId);
      const record = (action: 'GRANTED' | 'WITHDRAWN', wordingVersion: string) =>
        tx.insert(autopayConsents).values({
          customerId,
          action,
          bank: standing.bank,
          account: standing.account,
          wordingVersion,
          at: clock.now(),
        });
      if (autopay && !standing.consentInForce) await record('GRANTED', AUTOPAY_CONSENT.version);
      if (!autopay && standing.consentInForce) {
        const [granted] = await tx
          .select({ version: autopayConsents.wordingVersion })
          .from(autopayConsents)
          .where(eq(autopayConsents.customerId, customerId))
          .orderBy(desc(autopayConsents.id))
          .limit(1);
        await record('WITHDRAWN', granted?.version ?? AUTOPAY_CONSENT.version);
      }
      await tx.update(customers).set({ autopay }).where(eq(customers.id, customerId));
    });
    return read(customerId);
  }

  return {
    get: read,
    set,
    async sendCode(customerId: number): Promise<AutopaySetting> {
      await verification.send(customerId);
      return read(customerId);
    },
    async confirmCode(customerId: number, code: string): Promise<AutopaySetting> {
      await verification.confirm(customerId, code);
      return read(customerId);
    },
  };
}
export type AutopayService = ReturnType<typeof createAutopayService>;
