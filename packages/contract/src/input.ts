import { z } from 'zod';

/** The database's `integer` range: an id outside it can name no row (and must never reach a query). */
export const DB_INT_MAX = 2_147_483_647;

/**
 * C0 control characters and DEL, except tab, line feed and carriage return. PostgreSQL cannot store NUL
 * in text at all, and none of them belongs in a name, title, comment, order id or keyword.
 */
export function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/**
 * A whole number from a path, query or body: a JSON number, or a string of decimal digits. `Number()`
 * alone would also take '0x5', '1e1', '0b1', ' 5' and '' (as 0), which no client means as an integer.
 */
export function decimalInt(min: number, max: number) {
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,16}$/)])
    .pipe(z.coerce.number<string | number>().int().min(min).max(max));
}

/** A row id from a path, query or body: a positive integer in the database's range (else 400). */
export const dbId = () => decimalInt(1, DB_INT_MAX);

/** User text without control characters (else 400). */
export const plainText = () => z.string().refine((value) => !hasControlChars(value), 'control characters');
