import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchants, merchantUserEnrolments, merchantUserSessions, merchantUsers } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { createSessionTokens, type SessionTokens } from '../two-factor/session-tokens';
import { createTwoFactorSignIn, type TwoFactorStore } from '../two-factor/sign-in';
import type { MerchantUserPrincipal } from './principal';

/** The name authenticator apps show above a merchant user's code. */
export const PORTAL_TOTP_ISSUER = '오굿페이 가맹점';

/** Portal tokens: their own audience and key, so no customer's or operator's token passes for one. */
export function createPortalTokens(secret: string, clock: Clock): SessionTokens {
  return createSessionTokens(secret, clock, {
    audience: 'ohgood-merchant-portal',
    keyLabel: 'ohgood merchant portal tokens',
    ttlSeconds: 10 * 60 * 60,
  });
}

type MerchantUserRow = typeof merchantUsers.$inferSelect;

/** Where merchant users, their enrolment links and sessions live; the rules are the shared two-factor ones. */
function merchantUserStore(db: Db, tokens: SessionTokens): TwoFactorStore<MerchantUserPrincipal, MerchantUserRow> {
  return {
    rateKey: 'merchant-user',
    issuer: PORTAL_TOTP_ISSUER,
    tokens,
    async byEmail(email) {
      const [row] = await db.select().from(merchantUsers).where(eq(merchantUsers.email, email));
      return row;
    },
    async byId(id) {
      const [row] = await db.select().from(merchantUsers).where(eq(merchantUsers.id, id));
      return row;
    },
    async byEnrolment(tokenHash, now) {
      const [row] = await db
        .select({ user: merchantUsers })
        .from(merchantUserEnrolments)
        .innerJoin(merchantUsers, eq(merchantUsers.id, merchantUserEnrolments.merchantUserId))
        .where(
          and(
            eq(merchantUserEnrolments.tokenHash, tokenHash),
            isNull(merchantUserEnrolments.usedAt),
            gt(merchantUserEnrolments.expiresAt, now),
          ),
        );
      return row?.user;
    },
    async completeEnrolment(tx, { tokenHash, account, passwordHash, step, now }) {
      const spent = await tx
        .update(merchantUserEnrolments)
        .set({ usedAt: now })
        .where(and(eq(merchantUserEnrolments.tokenHash, tokenHash), isNull(merchantUserEnrolments.usedAt)))
        .returning({ id: merchantUserEnrolments.merchantUserId });
      if (spent.length === 0) return false;
      await tx
        .update(merchantUsers)
        .set({ passwordHash, enrolledAt: now, totpLastStep: step })
        .where(eq(merchantUsers.id, account));
      return true;
    },
    async takeStep(id, step) {
      const taken = await db
        .update(merchantUsers)
        .set({ totpLastStep: step })
        .where(and(eq(merchantUsers.id, id), sql`${merchantUsers.totpLastStep} < ${step}`))
        .returning({ id: merchantUsers.id });
      return taken.length > 0;
    },
    async openSession(id, now) {
      const [session] = await db
        .insert(merchantUserSessions)
        .values({ merchantUserId: id, createdAt: now, lastSeenAt: now })
        .returning({ id: merchantUserSessions.id });
      return session?.id ?? '';
    },
    async passSecondFactor(sessionId, now) {
      await db
        .update(merchantUserSessions)
        .set({ totpAt: now, lastSeenAt: now })
        .where(eq(merchantUserSessions.id, sessionId));
    },
    async endSession(sessionId, now) {
      await db.update(merchantUserSessions).set({ endedAt: now }).where(eq(merchantUserSessions.id, sessionId));
    },
    async principal(sessionId, now, idleSince) {
      // A disabled merchant's users open nothing, like its keys (docs/rules/operations.md#O7).
      const [row] = await db
        .update(merchantUserSessions)
        .set({ lastSeenAt: now })
        .from(merchantUsers)
        .innerJoin(merchants, eq(merchants.id, merchantUsers.merchantId))
        .where(
          and(
            eq(merchantUserSessions.id, sessionId),
            eq(merchantUsers.id, merchantUserSessions.merchantUserId),
            isNull(merchantUserSessions.endedAt),
            isNull(merchantUsers.disabledAt),
            isNull(merchants.disabledAt),
            gt(merchantUserSessions.lastSeenAt, idleSince),
          ),
        )
        .returning({
          merchantUserId: merchantUsers.id,
          merchantId: merchants.id,
          merchantName: merchants.name,
          email: merchantUsers.email,
          name: merchantUsers.name,
          totpAt: merchantUserSessions.totpAt,
        });
      if (!row) return null;
      const { totpAt, ...rest } = row;
      return { sessionId, ...rest, totp: totpAt !== null };
    },
  };
}

/**
 * Merchant users' sign-in (ADR 0234): the operators' password + TOTP rules (`two-factor/sign-in.ts`) over the
 * merchant-user tables: one-time enrolment links, lockout after wrong passwords or codes, revocable sessions.
 */
export function createMerchantUserSignIn(db: Db, clock: Clock, tokens: SessionTokens, wallClock: Clock) {
  const signIn = createTwoFactorSignIn(db, clock, wallClock, merchantUserStore(db, tokens));
  return {
    async enrolment(token: string) {
      const { account, ...shown } = await signIn.enrolment(token);
      const [merchant] = await db.select().from(merchants).where(eq(merchants.id, account.merchantId));
      return { ...shown, email: account.email, name: account.name, merchantName: merchant?.name ?? '' };
    },
    enrol: signIn.enrol,
    signIn: signIn.signIn,
    verifyTotp: (principal: MerchantUserPrincipal, code: string) =>
      signIn.verifyTotp({ sessionId: principal.sessionId, accountId: principal.merchantUserId }, code),
    signOut: (principal: MerchantUserPrincipal) => signIn.signOut(principal.sessionId),
    principalOf: signIn.principalOf,
  };
}
export type MerchantUserSignIn = ReturnType<typeof createMerchantUserSignIn>;
