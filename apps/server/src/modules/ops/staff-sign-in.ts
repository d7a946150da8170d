import { hash, verify } from '@node-rs/argon2';
import { MSG } from '@ohgood/contract/messages';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { claim, release } from '../../db/rate-limit-counters';
import { staff, staffEnrolments, staffSessions } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { AppError, tooMany } from '../../lib/errors';
import { AUTH_LIMITS } from '../auth/service';
import type { StaffPrincipal } from './staff-principal';
import { hashToken } from './staff-sessions';
import { STAFF_IDLE_MINUTES, type StaffTokens } from './staff-tokens';
import { matchTotp, totpUri } from './totp';

const TEN_MINUTES = 10 * 60 * 1000;
/** Wrong TOTP codes per operator before the step is refused for a while (docs/rules/operations.md#O2). */
const TOTP_FAILURES = { limit: 5, windowMs: TEN_MINUTES };

/** Wrong codes of one operator, at enrolment and at sign-in. */
const totpFailures = (staffId: number) => ({ key: `staff-totp-fail:${staffId}`, ...TOTP_FAILURES });

let dummyHash: Promise<string> | undefined;

const badSignIn = () => new AppError(401, 'INVALID_CREDENTIALS', MSG.badCredentials);
const badEnrolment = () =>
  new AppError(
    404,
    'ENROLMENT_INVALID',
    '등록 링크가 만료되었거나 이미 사용되었습니다. 관리자에게 새 링크를 요청하세요.',
  );

/**
 * Operators' sign-in and sessions (docs/rules/operations.md#O1–O3): one-time enrolment links, a password
 * (argon2id) and a TOTP code, 30-minute idle sessions. Sign-in failures are limited exactly like a customer's
 * login, per email and per IP.
 */
/** TOTP codes are checked against `wallClock` (real time); see createStaffService. */
export function createStaffSignIn(db: Db, clock: Clock, tokens: StaffTokens, wallClock: Clock) {
  async function openEnrolment(token: string) {
    const [row] = await db
      .select({ staff, tokenHash: staffEnrolments.tokenHash })
      .from(staffEnrolments)
      .innerJoin(staff, eq(staff.id, staffEnrolments.staffId))
      .where(
        and(
          eq(staffEnrolments.tokenHash, hashToken(token)),
          isNull(staffEnrolments.usedAt),
          gt(staffEnrolments.expiresAt, clock.now()),
        ),
      );
    if (!row) throw badEnrolment();
    return row.staff;
  }

  return {
    /** What the enrolment page shows: who, and the QR of the TOTP secret. */
    async enrolment(token: string) {
      const member = await openEnrolment(token);
      const otpauthUri = totpUri(member.email, member.totpSecret);
      const qrcode = (await import('qrcode')).default;
      const qrSvg = await qrcode.toString(otpauthUri, { type: 'svg', margin: 1 });
      return {
        email: member.email,
        name: member.name,
        role: member.role,
        otpauthUri,
        qrSvg,
        secret: member.totpSecret,
      };
    },

    /** Sets the password once the authenticator shows a right code; the link is then spent. */
    async enrol(token: string, password: string, code: string): Promise<void> {
      const member = await openEnrolment(token);
      // The link's codes share the operator's TOTP window, counted before the check like the sign-in step's.
      const failures = totpFailures(member.id);
      const now = clock.now();
      if (!(await claim(db, [failures], now)).granted) {
        throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      }
      const step = await matchTotp(member.totpSecret, code, wallClock.now(), member.totpLastStep);
      if (step === null) throw new AppError(400, 'INVALID_TOTP', '인증 앱의 6자리 코드가 올바르지 않습니다.');
      await release(db, [failures], now);
      const passwordHash = await hash(password);
      await withTx(db, async (tx) => {
        const spent = await tx
          .update(staffEnrolments)
          .set({ usedAt: clock.now() })
          .where(and(eq(staffEnrolments.tokenHash, hashToken(token)), isNull(staffEnrolments.usedAt)))
          .returning({ staffId: staffEnrolments.staffId });
        if (spent.length === 0) throw badEnrolment();
        await tx
          .update(staff)
          .set({ passwordHash, enrolledAt: clock.now(), totpLastStep: step })
          .where(eq(staff.id, member.id));
      });
    },

    /** Step one: the password. The token it answers opens only the TOTP step. */
    async signIn(emailInput: string, password: string, ip: string): Promise<string> {
      const email = emailInput.trim().toLowerCase();
      const now = clock.now();
      // An operator account opens the console: its failures are held to the strictest window, wherever they come from.
      const emailWindow = { key: `staff-login-fail:email:${email}`, ...AUTH_LIMITS.loginFailuresPerAccountIp };
      const ipWindow = { key: `staff-login-fail:ip:${ip}`, ...AUTH_LIMITS.loginFailuresPerIp };
      // Counted before the password is checked, so parallel guesses get no more checks than serial ones.
      const slot = await claim(db, [ipWindow, emailWindow], now);
      if (!slot.granted) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      const [member] = await db.select().from(staff).where(eq(staff.email, email));
      dummyHash ??= hash('not-a-real-password-staff');
      const usable = member?.passwordHash && !member.disabledAt ? member : null;
      // Same cost whether or not the operator exists (no enumeration).
      const valid = await verify(usable?.passwordHash ?? (await dummyHash), password);
      if (!usable || !valid) throw badSignIn();
      // Only failures count: a right password gives its place back.
      await release(db, [ipWindow, emailWindow], now);
      const [session] = await db
        .insert(staffSessions)
        .values({ staffId: usable.id, createdAt: now, lastSeenAt: now })
        .returning({ id: staffSessions.id });
      return tokens.issue(session?.id ?? '');
    },

    /** Step two: a code from the authenticator completes the session. */
    async verifyTotp(principal: StaffPrincipal, code: string): Promise<void> {
      const now = clock.now();
      const failures = totpFailures(principal.staffId);
      // Counted before the code is checked: 60 codes at once get 5 checks, as 60 in a row would.
      if (!(await claim(db, [failures], now)).granted) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      const [member] = await db.select().from(staff).where(eq(staff.id, principal.staffId));
      const step = member ? await matchTotp(member.totpSecret, code, wallClock.now(), member.totpLastStep) : null;
      // The step is taken with a conditional update, so the same code cannot open two sessions.
      const taken =
        step === null
          ? []
          : await db
              .update(staff)
              .set({ totpLastStep: step })
              .where(and(eq(staff.id, principal.staffId), sql`${staff.totpLastStep} < ${step}`))
              .returning({ id: staff.id });
      if (taken.length === 0) {
        throw new AppError(401, 'INVALID_TOTP', '인증 코드가 올바르지 않습니다. 인증 앱의 새 코드를 입력해주세요.');
      }
      await release(db, [failures], now);
      await db
        .update(staffSessions)
        .set({ totpAt: now, lastSeenAt: now })
        .where(eq(staffSessions.id, principal.sessionId));
    },

    async signOut(principal: StaffPrincipal): Promise<void> {
      await db.update(staffSessions).set({ endedAt: clock.now() }).where(eq(staffSessions.id, principal.sessionId));
    },

    /**
     * The operator behind a console token, or null: the session must be open, its operator enabled, and its
     * last request less than STAFF_IDLE_MINUTES ago. Each request moves that mark on.
     */
    async principalOf(token: string): Promise<StaffPrincipal | null> {
      const sessionId = tokens.sessionOf(token);
      if (!sessionId) return null;
      const now = clock.now();
      const idleSince = new Date(now.getTime() - STAFF_IDLE_MINUTES * 60_000);
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
      return {
        sessionId,
        staffId: row.staffId,
        email: row.email,
        name: row.name,
        role: row.role,
        totp: row.totpAt !== null,
      };
    },
  };
}
