import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { LoginRequest, RegisterRequest } from '@ohgood/contract/auth';
import { isValidBirth, SIGNUP_RULES } from '@ohgood/contract/auth-rules';
import { kstDate } from '@ohgood/contract/kst';
import { MSG } from '@ohgood/contract/messages';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { claim, hit, isOver, release } from '../../db/rate-limit-counters';
import { customers } from '../../db/schema';
import { isUniqueViolation } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, conflict, tooMany } from '../../lib/errors';
import { createWorkQueue, QueueFullError } from '../../lib/work-queue';
import type { TokenService } from './tokens';

const TEN_MINUTES = 10 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Abuse limits (docs/security.md). Logins count failures only, so a NAT full of people logging in correctly
 * is never locked out: per (account, address) — one guesser on one account —, per account from every
 * address — a distributed guesser —, and a much higher ceiling per address for credential stuffing (many
 * accounts from one address). An address over its ceiling gets 429 for wrong passwords only: a correct one
 * still signs in, because the account itself is not under attack. Sign-ups count attempts per IP (a flood)
 * and successful sign-ups per IP per hour and per day (each account gets a credit limit at once).
 */
export const AUTH_LIMITS = {
  loginFailuresPerAccountIp: { limit: 5, windowMs: TEN_MINUTES },
  loginFailuresPerAccount: { limit: 20, windowMs: TEN_MINUTES },
  loginFailuresPerIp: { limit: 300, windowMs: TEN_MINUTES },
  registerAttemptsPerIp: { limit: 20, windowMs: TEN_MINUTES },
  signupsPerIpPerHour: { limit: 5, windowMs: HOUR },
  signupsPerIpPerDay: { limit: 20, windowMs: DAY },
} as const;

/**
 * Sign-up hashing runs one at a time with a short queue: argon2 is deliberately expensive, and a flood of
 * registrations must not take the thread pool that logins verify on. A full queue answers 429 at once.
 */
const signupHashing = createWorkQueue(1, 32);
export const signupHashingStats = signupHashing.stats;

/** Verified against when the email is unknown, so both paths take the same time (no user enumeration). */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= hash('not-a-real-password-0');
  return dummyHash;
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * '사용자' and a short number. Nicknames are unique (case- and width-insensitively), so a taken one is drawn
 * again with one more digit each time: four digits while there is room, more as the service grows.
 */
export function defaultNickname(attempt = 0): string {
  const digits = 4 + attempt;
  return `사용자${randomInt(10 ** (digits - 1), 10 ** digits)}`;
}

/** Tries of a fresh default nickname before giving up (each with one more digit). */
const NICKNAME_TRIES = 6;

export interface AuthService {
  register(input: RegisterRequest, ip: string): Promise<{ customerId: number }>;
  login(input: LoginRequest, ip: string): Promise<{ accessToken: string }>;
}

/** Sign-ups per IP; configurable (SIGNUPS_PER_IP_PER_*) because a whole office or a test suite shares one IP. */
export interface SignupLimits {
  perHour: number;
  perDay: number;
}

export function createAuthService(
  db: Db,
  clock: Clock,
  tokens: TokenService,
  signups: SignupLimits = {
    perHour: AUTH_LIMITS.signupsPerIpPerHour.limit,
    perDay: AUTH_LIMITS.signupsPerIpPerDay.limit,
  },
): AuthService {
  function checkSignup(input: RegisterRequest, now: Date) {
    if (!isValidBirth(input.birth, kstDate(now))) throw badRequest('INVALID_BIRTH', SIGNUP_RULES.birth, 'birth');
  }

  /**
   * The same 409 the unique constraint gives in `createCustomer`, only without hashing first: it tells the
   * person signing up nothing more than before, and costs an attacker's flood no CPU of ours.
   */
  async function refuseTakenEmail(email: string) {
    const [taken] = await db.select({ id: customers.id }).from(customers).where(eq(customers.email, email));
    if (taken) throw conflict('EMAIL_TAKEN', MSG.emailTaken, 'emailId');
  }

  /** A sign-up that has its place in the address's limits; the expensive hash comes last. */
  async function createCustomer(input: RegisterRequest, now: Date): Promise<{ customerId: number }> {
    const email = normalizeEmail(input.emailId);
    let passwordHash: string;
    try {
      passwordHash = await signupHashing.run(() => hash(input.pwd));
    } catch (error) {
      if (error instanceof QueueFullError) throw tooMany('TOO_MANY_SIGNUPS', MSG.registerBusy);
      throw error;
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        const [row] = await db
          .insert(customers)
          .values({
            email,
            passwordHash,
            name: input.name.trim(),
            birth: input.birth,
            account: input.account,
            accountName: input.accountName,
            nickname: defaultNickname(attempt),
            // On the app clock, as everything the account's age is compared with (report weights, the console).
            createdAt: now,
          })
          .returning({ id: customers.id });
        return { customerId: row?.id ?? 0 };
      } catch (error) {
        if (isUniqueViolation(error, 'customers_email_key')) throw conflict('EMAIL_TAKEN', MSG.emailTaken, 'emailId');
        if (isUniqueViolation(error, 'customers_nickname_key') && attempt + 1 < NICKNAME_TRIES) continue;
        throw error;
      }
    }
  }

  return {
    async register(input, ip) {
      const now = clock.now();
      // A flood of attempts is capped too, never below the sign-ups an IP may make in an hour.
      const attemptLimit = Math.max(AUTH_LIMITS.registerAttemptsPerIp.limit, signups.perHour);
      const attempts = { key: `register:ip:${ip}`, ...AUTH_LIMITS.registerAttemptsPerIp, limit: attemptLimit };
      const hourly = { key: `signup:ip-hour:${ip}`, ...AUTH_LIMITS.signupsPerIpPerHour, limit: signups.perHour };
      const daily = { key: `signup:ip-day:${ip}`, ...AUTH_LIMITS.signupsPerIpPerDay, limit: signups.perDay };
      // An address at its limits is told at once; otherwise the attempt counts (in one statement, `hit`).
      if (await isOver(db, daily, now)) throw tooMany('TOO_MANY_SIGNUPS', MSG.registerLimitDay);
      if ((await isOver(db, hourly, now)) || (await hit(db, attempts, now))) {
        throw tooMany('TOO_MANY_SIGNUPS', MSG.registerLimitHour);
      }
      checkSignup(input, now);
      await refuseTakenEmail(normalizeEmail(input.emailId));
      // The sign-up is counted in the hour and the day before the hash, in one statement: parallel sign-ups
      // from one address make no more accounts than serial ones. One that then fails gives its place back.
      const slot = await claim(db, [daily, hourly], now);
      if (slot.refusedBy === daily) throw tooMany('TOO_MANY_SIGNUPS', MSG.registerLimitDay);
      if (!slot.granted) throw tooMany('TOO_MANY_SIGNUPS', MSG.registerLimitHour);
      try {
        return await createCustomer(input, now);
      } catch (error) {
        await release(db, [daily, hourly], now);
        throw error;
      }
    },

    async login(input, ip) {
      const email = normalizeEmail(input.emailId);
      const now = clock.now();
      // Only failures count (AUTH_LIMITS): the account from this address, the account from anywhere, the address.
      const pairWindow = { key: `login-fail:account-ip:${email}:${ip}`, ...AUTH_LIMITS.loginFailuresPerAccountIp };
      const accountWindow = { key: `login-fail:account:${email}`, ...AUTH_LIMITS.loginFailuresPerAccount };
      const ipWindow = { key: `login-fail:ip:${ip}`, ...AUTH_LIMITS.loginFailuresPerIp, countOnly: true as const };
      // Counted before the password is checked, so parallel guesses get no more checks than serial ones; the
      // address only counts here: over its ceiling, a wrong password is answered 429 and a right one signs in.
      const slot = await claim(db, [pairWindow, accountWindow, ipWindow], now);
      if (!slot.granted) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      const [customer] = await db
        .select({ id: customers.id, passwordHash: customers.passwordHash })
        .from(customers)
        .where(eq(customers.email, email));
      // Verify against a dummy hash when the email is unknown so both paths cost the same.
      const valid = await verify(customer?.passwordHash ?? (await getDummyHash()), input.pwd);
      if (!customer || !valid) {
        if (slot.count(ipWindow) > ipWindow.limit) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
        throw unauthorizedLogin();
      }
      // Only failures count: a right password gives its place back.
      await release(db, [pairWindow, accountWindow, ipWindow], now);
      return { accessToken: await tokens.issue(customer.id) };
    },
  };
}

/**
 * A failed login is the one 401 that is not "your token is bad": the web app's login page handles it
 * itself (it is on /login already, so no redirect happens).
 */
function unauthorizedLogin() {
  return new AppError(401, 'INVALID_CREDENTIALS', MSG.badCredentials);
}
