import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchants, merchantUserEnrolments, merchantUserSessions, merchantUsers } from '../../db/schema';
import { isUniqueViolation, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import { type Actor, writeAudit } from '../ops/audit';
import { ENROLMENT_MS, hashToken, newEnrolmentToken } from '../two-factor/enrolment-token';
import { newTotpSecret } from '../two-factor/totp';

/** The portal page where a new merchant user sets a password and scans the TOTP QR. */
export function portalEnrolmentPath(token: string): string {
  return `/merchant/portal/enrol/${token}`;
}

/** What an ADMIN does about a merchant's users in the console: add one (a one-time link), list, end sessions. */
export function createMerchantUsersAdmin(db: Db, clock: Clock) {
  return {
    async list(merchantId: number) {
      const users = await db
        .select()
        .from(merchantUsers)
        .where(eq(merchantUsers.merchantId, merchantId))
        .orderBy(asc(merchantUsers.id));
      const open = await db
        .select({ merchantUserId: merchantUserSessions.merchantUserId, count: count() })
        .from(merchantUserSessions)
        .innerJoin(merchantUsers, eq(merchantUsers.id, merchantUserSessions.merchantUserId))
        .where(and(eq(merchantUsers.merchantId, merchantId), isNull(merchantUserSessions.endedAt)))
        .groupBy(merchantUserSessions.merchantUserId);
      const openOf = new Map(open.map((row) => [row.merchantUserId, row.count]));
      return users.map((user) => ({
        merchantUserId: user.id,
        email: user.email,
        name: user.name,
        enrolled: user.enrolledAt !== null,
        disabled: user.disabledAt !== null,
        openSessions: openOf.get(user.id) ?? 0,
      }));
    },

    /** A new user of the merchant with a fresh TOTP secret; answers the enrolment link, once. */
    async create(by: Actor, merchantId: number, input: { email: string; name: string; reason: string }) {
      const token = newEnrolmentToken();
      const email = input.email.trim().toLowerCase();
      try {
        return await withTx(db, async (tx) => {
          const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId));
          if (!merchant) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
          if (merchant.disabledAt) throw conflict('MERCHANT_DISABLED', '사용 중지된 가맹점입니다.');
          const now = clock.now();
          const [row] = await tx
            .insert(merchantUsers)
            .values({ merchantId, email, name: input.name, totpSecret: newTotpSecret(), createdAt: now })
            .returning({ id: merchantUsers.id });
          const merchantUserId = row?.id ?? 0;
          await tx.insert(merchantUserEnrolments).values({
            tokenHash: hashToken(token),
            merchantUserId,
            expiresAt: new Date(now.getTime() + ENROLMENT_MS),
          });
          await writeAudit(tx, by, now, {
            action: 'merchant-user.create',
            targetType: 'merchant',
            targetId: merchantId,
            reason: input.reason,
            after: { merchantUserId, email, name: input.name },
          });
          return { merchantUserId, enrolmentUrl: portalEnrolmentPath(token) };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'merchant_users_email_key')) {
          throw conflict('MERCHANT_USER_EMAIL_TAKEN', '이미 등록된 가맹점 사용자 이메일입니다.');
        }
        throw error;
      }
    },

    /** Ends every open session of a merchant user now (a lost laptop, someone who left). */
    async endSessions(by: Actor, merchantUserId: number, reason: string): Promise<void> {
      await withTx(db, async (tx) => {
        const [user] = await tx.select().from(merchantUsers).where(eq(merchantUsers.id, merchantUserId));
        if (!user) throw notFound('MERCHANT_USER_NOT_FOUND', '가맹점 사용자를 찾을 수 없습니다.');
        const now = clock.now();
        const ended = await tx
          .update(merchantUserSessions)
          .set({ endedAt: now })
          .where(and(eq(merchantUserSessions.merchantUserId, merchantUserId), isNull(merchantUserSessions.endedAt)))
          .returning({ id: merchantUserSessions.id });
        await writeAudit(tx, by, now, {
          action: 'merchant-user.end-sessions',
          targetType: 'merchant',
          targetId: user.merchantId,
          reason,
          after: { merchantUserId, ended: ended.length },
        });
      });
    },
  };
}
