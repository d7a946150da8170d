import { hash, verify } from '@node-rs/argon2';
import { MSG } from '@ohgood/contract/messages';
import type { Db } from '../../db/client';
import { claim, release } from '../../db/rate-limit-counters';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { AppError, tooMany } from '../../lib/errors';
import { qrSvg } from '../../lib/qr-svg';
import { AUTH_LIMITS } from '../auth/service';
import { hashToken } from './enrolment-token';
import { SESSION_IDLE_MINUTES, type SessionTokens } from './session-tokens';
import { matchTotp, totpUri } from './totp';

const TEN_MINUTES = 10 * 60 * 1000;
/** Wrong TOTP codes per account before the step is refused for a while (docs/rules/operations.md#O2). */
const TOTP_FAILURES = { limit: 5, windowMs: TEN_MINUTES };

/** What a password + TOTP account looks like to the rules, whichever table holds it. */
export interface TwoFactorAccount {
  id: number;
  email: string;
  passwordHash: string | null;
  totpSecret: string;
  totpLastStep: number;
  disabledAt: Date | null;
}

/**
 * Where one kind of account (operators, merchant users) keeps its rows: the queries, never the rules. The
 * rules (limits counted before each check, no enumeration, a code used once, one-time links) live in
 * createTwoFactorSignIn, the same for every kind.
 */
export interface TwoFactorStore<Principal, Account extends TwoFactorAccount = TwoFactorAccount> {
  /** Prefix of the kind's rate-limit keys ('staff' keeps the console's keys as they were). */
  rateKey: string;
  /** The name authenticator apps show above the code. */
  issuer: string;
  tokens: SessionTokens;
  byEmail(email: string): Promise<TwoFactorAccount | undefined>;
  byId(id: number): Promise<TwoFactorAccount | undefined>;
  /** The account of an unspent, unexpired enrolment link. */
  byEnrolment(tokenHash: string, now: Date): Promise<Account | undefined>;
  /** Spends the link and sets the password and the code's step; false when the link was spent meanwhile. */
  completeEnrolment(
    tx: Tx,
    enrolment: { tokenHash: string; account: number; passwordHash: string; step: number; now: Date },
  ): Promise<boolean>;
  /** Records the step a code matched, only if later than the last: false when another request took it. */
  takeStep(account: number, step: number): Promise<boolean>;
  openSession(account: number, now: Date): Promise<string>;
  passSecondFactor(sessionId: string, now: Date): Promise<void>;
  endSession(sessionId: string, now: Date): Promise<void>;
  /** The principal of an open session of an enabled account seen since `idleSince`; moves its mark to `now`. */
  principal(sessionId: string, now: Date, idleSince: Date): Promise<Principal | null>;
}

let dummyHash: Promise<string> | undefined;

const badSignIn = () => new AppError(401, 'INVALID_CREDENTIALS', MSG.badCredentials);
const badEnrolment = () =>
  new AppError(
    404,
    'ENROLMENT_INVALID',
    '등록 링크가 만료되었거나 이미 사용되었습니다. 관리자에게 새 링크를 요청하세요.',
  );

/**
 * Password + TOTP sign-in (docs/rules/operations.md#O1–O3), for operators and merchant users alike: one-time
 * enrolment links, a password (argon2id) and a TOTP code, 30-minute idle sessions. Password failures are
 * limited exactly like a customer's login, per email and per IP; TOTP codes are checked against `wallClock`
 * (real time, what an authenticator app reads) while everything else uses `clock`.
 */
export function createTwoFactorSignIn<Principal, Account extends TwoFactorAccount>(
  db: Db,
  clock: Clock,
  wallClock: Clock,
  store: TwoFactorStore<Principal, Account>,
) {
  const totpFailures = (account: number) => ({ key: `${store.rateKey}-totp-fail:${account}`, ...TOTP_FAILURES });

  /**
   * The step a right code matched, or null. Counted before the check, so 60 codes at once get 5 checks as 60 in
   * a row would; `take` records the step (once), and only a taken step gives the failure's place back.
   */
  async function checkCode(
    account: TwoFactorAccount | undefined,
    accountId: number,
    code: string,
    take: (step: number) => Promise<boolean>,
  ): Promise<number | null> {
    const now = clock.now();
    const failures = totpFailures(accountId);
    if (!(await claim(db, [failures], now)).granted) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
    const step = account ? await matchTotp(account.totpSecret, code, wallClock.now(), account.totpLastStep) : null;
    if (step === null || !(await take(step))) return null;
    await release(db, [failures], now);
    return step;
  }

  async function openEnrolment(token: string): Promise<Account> {
    const account = await store.byEnrolment(hashToken(token), clock.now());
    if (!account) throw badEnrolment();
    return account;
  }

  return {
    /** What the enrolment page shows: who, and the QR of the TOTP secret. */
    async enrolment(token: string) {
      const account = await openEnrolment(token);
      const otpauthUri = totpUri(store.issuer, account.email, account.totpSecret);
      return { account, otpauthUri, qrSvg: await qrSvg(otpauthUri), secret: account.totpSecret };
    },

    /** Sets the password once the authenticator shows a right code; the link is then spent. */
    async enrol(token: string, password: string, code: string): Promise<void> {
      const account = await openEnrolment(token);
      // The link's codes share the account's TOTP window; the step is recorded with the password below.
      const step = await checkCode(account, account.id, code, async () => true);
      if (step === null) throw new AppError(400, 'INVALID_TOTP', '인증 앱의 6자리 코드가 올바르지 않습니다.');
      const passwordHash = await hash(password);
      await withTx(db, async (tx) => {
        const enrolment = { tokenHash: hashToken(token), account: account.id, passwordHash, step, now: clock.now() };
        if (!(await store.completeEnrolment(tx, enrolment))) {
          throw badEnrolment();
        }
      });
    },

    /** Step one: the password. The token it answers opens only the TOTP step. */
    async signIn(emailInput: string, password: string, ip: string): Promise<string> {
      const email = emailInput.trim().toLowerCase();
      const now = clock.now();
      // These accounts open the console or a shop's money: failures are held to the strictest window.
      const emailWindow = {
        key: `${store.rateKey}-login-fail:email:${email}`,
        ...AUTH_LIMITS.loginFailuresPerAccountIp,
      };
      const ipWindow = { key: `${store.rateKey}-login-fail:ip:${ip}`, ...AUTH_LIMITS.loginFailuresPerIp };
      // Counted before the password is checked, so parallel guesses get no more checks than serial ones.
      const slot = await claim(db, [ipWindow, emailWindow], now);
      if (!slot.granted) throw tooMany('TOO_MANY_LOGIN_ATTEMPTS', MSG.tooManyAttempts);
      const account = await store.byEmail(email);
      dummyHash ??= hash('not-a-real-password-two-factor');
      const usable = account?.passwordHash && !account.disabledAt ? account : null;
      // Same cost whether or not the account exists (no enumeration).
      const valid = await verify(usable?.passwordHash ?? (await dummyHash), password);
      if (!usable || !valid) throw badSignIn();
      // Only failures count: a right password gives its place back.
      await release(db, [ipWindow, emailWindow], now);
      return store.tokens.issue(await store.openSession(usable.id, now));
    },

    /** Step two: a code from the authenticator completes the session. */
    async verifyTotp(session: { sessionId: string; accountId: number }, code: string): Promise<void> {
      const account = await store.byId(session.accountId);
      // The step is taken with a conditional update, so the same code cannot open two sessions.
      const step = await checkCode(account, session.accountId, code, (s) => store.takeStep(session.accountId, s));
      if (step === null) {
        throw new AppError(401, 'INVALID_TOTP', '인증 코드가 올바르지 않습니다. 인증 앱의 새 코드를 입력해주세요.');
      }
      await store.passSecondFactor(session.sessionId, clock.now());
    },

    async signOut(sessionId: string): Promise<void> {
      await store.endSession(sessionId, clock.now());
    },

    /**
     * The principal behind a token, or null: the session must be open, its account enabled, and its last
     * request less than SESSION_IDLE_MINUTES ago. Each request moves that mark on.
     */
    async principalOf(token: string): Promise<Principal | null> {
      const sessionId = store.tokens.sessionOf(token);
      if (!sessionId) return null;
      const now = clock.now();
      return store.principal(sessionId, now, new Date(now.getTime() - SESSION_IDLE_MINUTES * 60_000));
    },
  };
}
