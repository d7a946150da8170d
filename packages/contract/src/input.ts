import { z } from 'zod';

/** The database's `integer` range: an id outside it can name no row (and must never reach a query). */
export const DB_INT_MAX = 2_147_483_647;

/**
 * C0 control characters and DEL, except tab, line feed and carriage return. PostgreSQL cannot store NUL
 * in text at all, and none of them belongs in a name, title, comment, order id or keyword.
 */
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasControlChars(value: string): boolean {
  return CONTROL_CHARS.test(value);
}

/** A row id from a path, query or body: a positive integer in the database's range (else 400). */
export const dbId = () => z.coerce.number().int().positive().max(DB_INT_MAX);

/** User text without control characters (else 400). */
export const plainText = () => z.string().refine((value) => !hasControlChars(value), 'control characters');
