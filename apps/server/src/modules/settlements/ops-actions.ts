import { maskAccount } from '@ohgood/contract/bank';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchantPayoutHolds, merchants } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { writeAudit } from '../ops/audit';
import { actorOf, type StaffPrincipal } from '../ops/staff-principal';

type MerchantRow = typeof merchants.$inferSelect;

/**
 * What operators change about a merchant's settlement (docs/rules/settlement.md#M1, #M5, #M6), each with its
 * audit row in the same transaction: ADMIN sets the fee and cycle and the settlement account; another
 * operator verifies the account (ADR 0229); RISK holds payouts with a reason and releases them.
 */
export function createSettlementOpsActions(db: Db, clock: Clock) {
  async function locked(tx: Tx, merchantId: number): Promise<MerchantRow> {
    const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for('update');
    if (!row) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
    return row;
  }

  /** One audited change of a merchant, in one transaction with its lock. */
  function change(
    by: StaffPrincipal,
    merchantId: number,
    reason: string,
    action: string,
    apply: (tx: Tx, before: MerchantRow) => Promise<{ before?: unknown; after?: unknown }>,
  ) {
    return withTx(db, async (tx) => {
      const diff = await apply(tx, await locked(tx, merchantId));
      await writeAudit(tx, actorOf(by), clock.now(), {
        action,
        targetType: 'merchant',
        targetId: merchantId,
        reason,
        ...diff,
      });
    });
  }

  return {
    setTerms: (by: StaffPrincipal, merchantId: number, input: { feeBps: number; cycleDays: number; reason: string }) =>
      change(by, merchantId, input.reason, 'merchant.settlement-terms', async (tx, before) => {
        await tx
          .update(merchants)
          .set({ feeBps: input.feeBps, settlementDays: input.cycleDays })
          .where(eq(merchants.id, merchantId));
        return {
          before: { feeBps: before.feeBps, cycleDays: before.settlementDays },
          after: { feeBps: input.feeBps, cycleDays: input.cycleDays },
        };
      }),

    /** A new account is unverified: payouts wait until another operator verifies it. */
    setAccount: (by: StaffPrincipal, merchantId: number, input: { bank: string; account: string; reason: string }) =>
      change(by, merchantId, input.reason, 'merchant.settlement-account', async (tx, before) => {
        await tx
          .update(merchants)
          .set({
            settlementBank: input.bank,
            settlementAccount: input.account,
            settlementAccountSetBy: by.staffId,
            settlementAccountVerifiedAt: null,
            settlementAccountVerifiedBy: null,
          })
          .where(eq(merchants.id, merchantId));
        // Masked in the trail too: the audit log is read by every console role.
        const shown = (bank: string | null, account: string | null) =>
          bank && account ? { bank, account: maskAccount(account) } : null;
        return {
          before: shown(before.settlementBank, before.settlementAccount),
          after: shown(input.bank, input.account),
        };
      }),

    verifyAccount: (by: StaffPrincipal, merchantId: number, reason: string) =>
      change(by, merchantId, reason, 'merchant.settlement-account-verify', async (tx, before) => {
        if (!before.settlementAccount) {
          throw conflict('SETTLEMENT_ACCOUNT_MISSING', '등록된 정산 계좌가 없습니다.');
        }
        if (before.settlementAccountVerifiedAt) {
          throw conflict('SETTLEMENT_ACCOUNT_VERIFIED', '이미 확인된 정산 계좌입니다.');
        }
        if (before.settlementAccountSetBy === by.staffId) {
          throw forbidden(
            'SAME_STAFF_VERIFIES',
            '계좌를 등록한 운영자는 확인할 수 없습니다. 다른 운영자에게 요청해 주세요.',
          );
        }
        await tx
          .update(merchants)
          .set({ settlementAccountVerifiedAt: clock.now(), settlementAccountVerifiedBy: by.staffId })
          .where(eq(merchants.id, merchantId));
        return { before: { verified: false }, after: { verified: true } };
      }),

    hold: (by: StaffPrincipal, merchantId: number, reason: string) =>
      change(by, merchantId, reason, 'merchant.payout-hold', async (tx) => {
        const [open] = await tx
          .select({ id: merchantPayoutHolds.id })
          .from(merchantPayoutHolds)
          .where(and(eq(merchantPayoutHolds.merchantId, merchantId), isNull(merchantPayoutHolds.releasedAt)));
        if (open) throw conflict('PAYOUTS_HELD', '이미 지급이 보류된 가맹점입니다.');
        await tx.insert(merchantPayoutHolds).values({ merchantId, reason, heldBy: by.staffId, heldAt: clock.now() });
        return { before: { held: false }, after: { held: true } };
      }),

    release: (by: StaffPrincipal, merchantId: number, reason: string) =>
      change(by, merchantId, reason, 'merchant.payout-release', async (tx) => {
        const [released] = await tx
          .update(merchantPayoutHolds)
          .set({ releasedAt: clock.now(), releasedBy: by.staffId, releaseReason: reason })
          .where(and(eq(merchantPayoutHolds.merchantId, merchantId), isNull(merchantPayoutHolds.releasedAt)))
          .returning({ id: merchantPayoutHolds.id });
        if (!released) throw conflict('PAYOUTS_NOT_HELD', '지급이 보류되지 않은 가맹점입니다.');
        return { before: { held: true }, after: { held: false } };
      }),
  };
}

export type SettlementOpsActions = ReturnType<typeof createSettlementOpsActions>;
