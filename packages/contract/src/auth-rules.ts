import { isCalendarDate } from './kst';
import { LIMITS } from './limits';

/** Account rules as plain functions, free of zod so the web app's first load stays small. */
/**
 * A standard email pattern (docs/rules/money-and-time.md#T4); the same test drives the red border and the server check.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
/** Letters, digits and ! @ # only, 8–64 long (docs/rules/money-and-time.md#T4). */
export const PASSWORD_CHARS = /^[A-Za-z0-9!@#]+$/;
export const ACCOUNT_PATTERN = /^\d{10,14}$/;
/** What people type between digit groups of an account number ('110-123-456789', '110 123 456789'). */
const ACCOUNT_SEPARATORS = /[\s-]/g;
export const BIRTH_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The account number as digits only: hyphens and spaces typed between groups are dropped. */
export function normalizeAccount(value: string): string {
  return value.replace(ACCOUNT_SEPARATORS, '');
}

export function isValidAccount(value: string): boolean {
  return ACCOUNT_PATTERN.test(normalizeAccount(value));
}

/**
 * The sign-up fields' rules as a refusal says them: each names its field and what the field needs, so any
 * client can tell the person what to fix (the server sends them with the field's key).
 */
export const SIGNUP_RULES = {
  name: `이름: 1~${LIMITS.nameMax}자로 입력해주세요.`,
  emailId: '이메일: name@example.com 형식으로 입력해주세요.',
  pwd: `비밀번호: 영문·숫자·!@#만 사용해 ${LIMITS.passwordMin}~${LIMITS.passwordMax}자로 입력해주세요.`,
  birth: '생년월일: 1900-01-01부터 어제까지의 날짜를 YYYY-MM-DD로 입력해주세요.',
  account: '계좌번호: 숫자 10~14자리로 입력해주세요. (- 는 있어도 돼요)',
  accountName: '은행: 국민, 기업, 카카오, 하나, 우리, 신한, 토스 중에서 골라주세요.',
  unknown: '회원가입에 쓰지 않는 항목이 있어요: name, emailId, pwd, birth, account, accountName만 보내주세요.',
} as const;
export type SignupField = Exclude<keyof typeof SIGNUP_RULES, 'unknown'>;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

export function isValidPassword(value: string): boolean {
  return PASSWORD_CHARS.test(value) && value.length >= LIMITS.passwordMin && value.length <= LIMITS.passwordMax;
}

/** A real calendar date in the past, as YYYY-MM-DD. `today` is the KST date as YYYY-MM-DD. */
export function isValidBirth(value: string, today: string): boolean {
  if (!BIRTH_PATTERN.test(value) || !isCalendarDate(value)) return false;
  return value < today && value >= '1900-01-01';
}
