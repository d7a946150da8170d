import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { LoginRequest, RegisterRequest } from '@ohgood/contract/auth';
import { isValidBirth } from '@ohgood/contract/auth-rules';
import { MSG } from '@ohgood/contract/messages';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';
import { isUniqueViolation } from '../../db/tx';
import { type Clock, kstDate } from '../../lib/clock';
import { AppError, badRequest, conflict, tooMany } from '../../lib/errors';
import { hit, isOver } from '../../lib/rate-limit';
import type { TokenService } from './tokens';

const LOGIN_WINDOW_MS = 10 * 60 * 1000;
const LOGIN_FAILURES_PER_EMAIL = 5;
const LOGIN_ATTEMPTS_PER_IP = 30;

/** Verified against when the email is unknown, so both paths take the same time (no user enumeration). */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= hash('not-a-real-password-0');
  return dummyHash;
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function defaultNickname(): string {
  return `사용자${randomInt(1000, 10000)}`;
}

export interface AuthService {
  register(input: RegisterRequest): Promise<{ customerId: number }>;
  login(input: LoginRequest, ip: string): Promise<{ accessToken: string }>;
}

export function createAuthService(db: Db, clock: Clock, tokens: TokenService): AuthService {
  return {
    async register(input) {
      if (!isValidBirth(input.birth, kstDate(clock.now()))) {
        throw badRequest('INVALID_BIRTH', '생년월일이 올바르지 않습니다.');
      }
      const passwordHash = await hash(input.pwd);
      try {
        const [row] = await db
          .insert(customers)
          .values({
            email: normalizeEmail(input.emailId),
            passwordHash,
            name: input.name.trim(),
            birth: input.birth,
            account: input.account,
            accountName: input.accountName,
            nickname: defaultNickname(),
          })
          .returning({ id: customers.id });
        return { customerId: row?.id ?? 0 };
      } catch (error) {
        if (isUniqueViolation(error, 'customers_email_key')) throw conflict('EMAIL_TAKEN', MSG.emailTaken);
        throw error;
      }
    },

    async login(input, ip) {
      const email = normalizeEmail(input.emailId);
      const now = clock.now();
      const emailWindow = {
        key: `login-fail:email:${email}`,
        limit: LOGIN_FAILURES_PER_EMAIL,
        windowMs: LOGIN_WINDOW_MS,
      };
      const ipWindow = { key: `login:ip:${ip}`, limit: LOGIN_ATTEMPTS_PER_IP, windowMs: LOGIN_WINDOW_MS };
      if ((await hit(db, ipWindow, now)) || (await isOver(db, emailWindow, now))) {
        throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      }
      const [customer] = await db
        .select({ id: customers.id, passwordHash: customers.passwordHash })
        .from(customers)
        .where(eq(customers.email, email));
      // Verify against a dummy hash when the email is unknown so both paths cost the same.
      const valid = await verify(customer?.passwordHash ?? (await getDummyHash()), input.pwd);
      if (!customer || !valid) {
        await hit(db, emailWindow, now);
        throw unauthorizedLogin();
      }
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
