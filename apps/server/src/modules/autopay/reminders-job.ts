import { daysBetween } from '@ohgood/contract/kst';
import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { sql } from 'drizzle-orm';
import { customers, purchases, statements } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { recordEvents } from '../../events/record-event';
import { dueDate } from '../bills/statements';
import { autopayActiveSql } from './standing';

/**
 * The daily reminders (docs/rules/notifications.md#N5), from the clock and no customer action: for each
 * statement with unpaid lines that is not overdue, a D-3 reminder three days before its due date and a D-day
 * reminder on it, each an event recorded in this run's transaction. It says autopay will debit only when it
 * will (a customer still pending consent or 1원 인증 is told to pay, as one with autopay off). The runner claims each KST date once,
 * so each reminder happens once.
 */
export async function remindDueStatements(tx: Tx, today: string, at: Date): Promise<{ reminded: number }> {
  const rows = await rowsOf<{
    customer_id: number;
    month: string;
    extension: string | null;
    amount: string;
    autopay: boolean;
  }>(
    tx,
    sql`select s.customer_id, s.month, s.extension, ${autopayActiveSql(sql`c`)} as autopay,
        (select coalesce(sum(p.price), 0) from ${purchases} p where p.customer_id = s.customer_id
          and p.statement_month = s.month and p.status = 'UNPAID') as amount
      from ${statements} s join ${customers} c on c.id = s.customer_id
      where s.overdue_at is null and s.month < ${today.slice(0, 7)}
      order by s.id`,
  );
  const events = rows.flatMap((row) => {
    const due = dueDate(row.month, row.extension !== null);
    const amount = Number(row.amount);
    if (amount === 0) return [];
    const daysLeft = daysBetween(today, due);
    if (daysLeft !== 0 && daysLeft !== NOTIFICATION_RULES.reminderDaysBefore) return [];
    return [
      {
        type: 'bill.reminder' as const,
        customerId: row.customer_id,
        month: row.month,
        amount,
        dueDate: due,
        daysLeft,
        autopay: row.autopay,
      },
    ];
  });
  await recordEvents(tx, events, at);
  return { reminded: events.length };
}
