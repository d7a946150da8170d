/*
 * Numbers as Korean screens and answers write them, Intl.NumberFormat('ko-KR') style: '-1,234,567'. Whole
 * numbers, which every amount of won and points is, are grouped here without ICU: a page's first Intl
 * formatter sets ICU up, 10–30 ms, and four times that on a throttled phone (ADR 0106). Anything else (a
 * fraction, a number past 2^53) goes to Intl. The web app's format.test.ts holds the two to one output.
 */
let intl: Intl.NumberFormat | undefined;

/** 1234567 → '1,234,567' */
export function groupedNumber(value: number): string {
  if (!Number.isSafeInteger(value)) {
    intl ??= new Intl.NumberFormat('ko-KR');
    return intl.format(value);
  }
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return value < 0 || Object.is(value, -0) ? `-${text}` : text;
}

/** 12500 → '12,500원' */
export const won = (krw: number): string => `${groupedNumber(krw)}원`;

/** 4419 → '4,419P' */
export const points = (amount: number): string => `${groupedNumber(amount)}P`;
