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

/**
 * Characters that change how text looks without being seen: bidi controls (U+202E turns '\u202Egnp.exe' into
 * 'exe.png' on screen), zero-width spaces and joiners, the word joiner, the BOM, the soft hyphen, the
 * combining grapheme joiner and the Hangul fillers that render as nothing (an "empty" Korean name).
 */
const DECEPTIVE =
  /\u034F|[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/;

/** True when a name or title would display differently from what it is (docs/rules/shorts.md#S15). */
export function hasDeceptiveChars(value: string): boolean {
  return DECEPTIVE.test(value);
}

/** Text people read as written: composed (NFC), no control or invisible/bidi characters (else 400). */
export function isDisplayable(value: string): boolean {
  return !hasControlChars(value) && !hasDeceptiveChars(value);
}

/**
 * User text shown to others (names, titles, comments, order names): NFC-composed, so the same look is the
 * same string, and without control or invisible characters (else 400).
 */
export const plainText = () =>
  z
    .string()
    .refine(isDisplayable, 'control or invisible characters')
    .overwrite((value) => value.normalize('NFC'));

/**
 * The key under which two nicknames count as the same: compatibility-composed (full-width 'ＡＢ' is 'AB')
 * and lower-cased. PostgreSQL's unique index uses the same rule: lower(normalize(nickname, NFKC)).
 */
export function nicknameKey(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}
