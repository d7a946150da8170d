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
export const BIRTH_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

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
