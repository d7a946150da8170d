import { BILL_MSG } from '@ohgood/contract/bill-messages';
import { BILL_RULES } from '@ohgood/contract/bill-rules';
import type { StatementSummary, UnpaidLine } from '@ohgood/contract/bills';
import { addMonths, daysBetween, kstMonth } from '@ohgood/contract/kst';

/** Unpaid lines of one statement month, as the page shows them. */
export interface BillGroup {
  month: string;
  lines: UnpaidLine[];
  /** Months before the current one are due now. */
  dueNow: boolean;
}

export function groupBills(unpaidBills: UnpaidLine[][], currentMonth: string): BillGroup[] {
  return unpaidBills
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const month = kstMonth((lines[0] as UnpaidLine).date);
      return { month, lines, dueNow: month < currentMonth };
    });
}

/**
 * docs/rules/bills-and-grades.md#B7: while bills of earlier months exist, current-month lines are locked (the server
 * enforces oldest-first the same way). Returns the ids that may be ticked.
 */
export function selectableIds(groups: BillGroup[]): Set<number> {
  const hasDueNow = groups.some((g) => g.dueNow);
  return new Set(groups.filter((g) => g.dueNow || !hasDueNow).flatMap((g) => g.lines.map((l) => l.paymentId)));
}

/** 'M월' of a 'YYYY-MM' month. */
export function monthLabel(month: string): string {
  return `${Number(month.slice(5, 7))}월`;
}

/** The month a statement is paid in: M+1. */
export function paymentMonth(statementMonth: string): string {
  return addMonths(statementMonth, 1);
}

/** '15일' or '말일' (extended to the last day of the month). */
export function dueDayLabel(statement: Pick<StatementSummary, 'extension'>): string {
  return statement.extension ? '말일' : `${BILL_RULES.dueDay}일`;
}

/** 'D-3', 'D-Day' or 'D+2' from KST `today` to `dueDate` (both 'YYYY-MM-DD'). */
export function dDay(today: string, dueDate: string): string {
  const days = daysBetween(today, dueDate);
  if (days === 0) return 'D-Day';
  return days > 0 ? `D-${days}` : `D+${-days}`;
}

export type ExtensionCheck = 'ok' | 'not-issued' | 'overdue' | 'past-due' | 'already';

/**
 * The web mirror of the extension rule (docs/rules/bills-and-grades.md#B5; the server decides), with the
 * rule that refuses: nothing billed yet, already extended, overdue, or past the original due date.
 */
export function checkExtension(
  groups: BillGroup[],
  extended: boolean,
  statement?: Pick<StatementSummary, 'status' | 'dueDate'>,
  today?: string,
): ExtensionCheck {
  const first = groups[0];
  if (!first?.dueNow) return 'not-issued';
  if (extended) return 'already';
  if (statement?.status === 'OVERDUE') return 'overdue';
  if (statement && today && today > statement.dueDate) return 'past-due';
  return 'ok';
}

/** What a refused extension says, naming its rule. */
export const EXTENSION_REFUSAL: Record<Exclude<ExtensionCheck, 'ok'>, string> = {
  'not-issued': BILL_MSG.extensionNotIssued,
  overdue: BILL_MSG.extensionOverdue,
  'past-due': BILL_MSG.extensionPastDue,
  already: BILL_MSG.alreadyExtended,
};

/** A month's badge in the unpaid list: overdue, extended (due at month end) or due now. */
export function groupBadge(
  group: Pick<BillGroup, 'dueNow'>,
  statement: Pick<StatementSummary, 'status' | 'extension'> | undefined,
): { text: string; tone: 'danger' | 'neutral' } | null {
  if (statement?.status === 'OVERDUE') return { text: '연체', tone: 'danger' };
  if (statement?.extension) return { text: '연장됨 · 말일 납부', tone: 'neutral' };
  return group.dueNow ? { text: '납부 기한 도래', tone: 'danger' } : null;
}
