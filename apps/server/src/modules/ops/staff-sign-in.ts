import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { staff, staffEnrolments, staffSessions } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { createTwoFactorSignIn, type TwoFactorStore } from '../two-factor/sign-in';
import type { StaffPrincipal } from './staff-principal';
import type { StaffTokens } from './staff-tokens';

/** The name authenticator apps show above an operator's code. */
export const TOTP_ISSUER = '오굿페이 운영';

/** Where operators' accounts, enrolment links and sessions live; the rules are the shared two-factor ones. */
function staffStore(db: Db, tokens: StaffTokens): TwoFactorStore<StaffPrincipal, typeof staff.$inferSelect> {
  return {
    rateKey: 'staff',
    issuer: TOTP_ISSUER,
    tokens,
    async byEmail(email) {
      const [row] = await db.select().from(staff).where(eq(staff.email, email));
      return row;
    },
    async byId(id) {
      const [row] = await db.select().from(staff).where(eq(staff.id, id));
      return row;
    },
    async byEnrolment(tokenHash, now) {
      const [row] = await db
        .select({ staff })
        .from(staffEnrolments)
        .innerJoin(staff, eq(staff.id, staffEnrolments.staffId))
        .where(
          and(
            eq(staffEnrolments.tokenHash, tokenHash),
            isNull(staffEnrolments.usedAt),
            gt(staffEnrolments.expiresAt, now),
          ),
        );
      return row?.staff;
    },
    async completeEnrolment(tx, { tokenHash, account, passwordHash, step, now }) {
      const spent = await tx
        .update(staffEnrolments)
        .set({ usedAt: now })
        .where(and(eq(staffEnrolments.tokenHash, tokenHash), isNull(staffEnrolments.usedAt)))
        .returning({ staffId: staffEnrolments.staffId });
      if (spent.length === 0) return false;
      await tx.update(staff).set({ passwordHash, enrolledAt: now, totpLastStep: step }).where(eq(staff.id, account));
      return true;
    },
    async takeStep(id, step) {
      const taken = await db
        .update(staff)
        .set({ totpLastStep: step })
        .where(and(eq(staff.id, id), sql`${staff.totpLastStep} < ${step}`))
        .returning({ id: staff.id });
      return taken.length > 0;
    },
    async openSession(id, now) {
      const [session] = await db
        .insert(staffSessions)
        .values({ staffId: id, createdAt: now, lastSeenAt: now })
        .returning({ id: staffSessions.id });
      return session?.id ?? '';
    },
    async passSecondFactor(sessionId, now) {
      await db.update(staffSessions).set({ totpAt: now, lastSeenAt: now }).where(eq(staffSessions.id, sessionId));
    },
    async endSession(sessionId, now) {
      await db.update(staffSessions).set({ endedAt: now }).where(eq(staffSessions.id, sessionId));
    },
    async principal(sessionId, now, idleSince) {
      const [row] = await db
        .update(staffSessions)
        .set({ lastSeenAt: now })
        .from(staff)
        .where(
          and(
            eq(staffSessions.id, sessionId),
            eq(staff.id, staffSessions.staffId),
            isNull(staffSessions.endedAt),
            isNull(staff.disabledAt),
            gt(staffSessions.lastSeenAt, idleSince),
          ),
        )
        .returning({
          staffId: staff.id,
          email: staff.email,
          name: staff.name,
          role: staff.role,
          totpAt: staffSessions.totpAt,
        });
      if (!row) return null;
      const { totpAt, ...rest } = row;
      return { sessionId, ...rest, totp: totpAt !== null };
    },
  };
}

/**
 * Operators' sign-in and sessions (docs/rules/operations.md#O1–O3): the shared password + TOTP rules
 * (`two-factor/sign-in.ts`) over the staff tables. TOTP codes are checked against `wallClock` (real time).
 */
export function createStaffSignIn(db: Db, clock: Clock, tokens: StaffTokens, wallClock: Clock) {
  const signIn = createTwoFactorSignIn(db, clock, wallClock, staffStore(db, tokens));
  return {
    /** What the enrolment page shows: who (and their role), and the QR of the TOTP secret. */
    async enrolment(token: string) {
      const { account, ...shown } = await signIn.enrolment(token);
      return { ...shown, email: account.email, name: account.name, role: account.role };
    },
    enrol: signIn.enrol,
    signIn: signIn.signIn,
    verifyTotp: (principal: StaffPrincipal, code: string) =>
      signIn.verifyTotp({ sessionId: principal.sessionId, accountId: principal.staffId }, code),
    signOut: (principal: StaffPrincipal) => signIn.signOut(principal.sessionId),
    principalOf: signIn.principalOf,
  };
}
