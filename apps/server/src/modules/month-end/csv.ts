/*
 * CSV as Excel opens it right (docs/rules/operations.md#O15): UTF-8 with a byte-order mark (without it Excel reads
 * Hangul as the local code page), CRLF line ends and RFC 4180 quoting. A text cell that a spreadsheet would run as
 * a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe: a customer's shop
 * name or an operator's reason must never become a formula on finance's machine.
 */

/** The byte-order mark that opens every file. */
export const BOM = '\uFEFF';

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: numbers as they are, text defused and quoted when it holds a quote, comma or line break. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
