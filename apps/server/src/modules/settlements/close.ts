import { addDays, kstDate, kstStartOfDay } from '@ohgood/contract/kst';
import { saleFee } from '@ohgood/contract/settlements';
import { inArray, sql } from 'drizzle-orm';
import { merchants, settlementLines, settlements } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { recordEvents } from '../../events/record-event';
import { addBusinessDays, holidaysKnown } from './business-days';

/** A sale or a refund not yet in any settlement. */
interface OpenLine {
  kind: 'SALE' | 'REFUND';
  paymentId: number;
  merchantId: number;
  amount: number;
  at: Date;
}

/** A fixed key for the cluster-wide close lock: two closes never compute the same day side by side. */
const CLOSE_LOCK = 5_402_281;

/**
 * Closes every merchant's KST days before `today` into settlements (docs/rules/settlement.md#M3), run once
 * per KST date by the job runner, in its transaction. Each sale (by the time it was made) and each refund
 * (by the time it was refunded) not yet settled goes into the settlement of its merchant's day, so missed
 * days are closed as they would have been, oldest first, and a run finds nothing already settled. A line
 * that committed after its day was closed goes into the next day closed. A day with no lines has no
 * settlement. Each settlement records `settlement.closed`, which posts its fees to the ledger.
 */
export async function closeSettlements(
  tx: Tx,
  today: string,
  at: Date,
): Promise<{ settlements: number; lines: number; alert?: string }> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CLOSE_LOCK})`);
  const open = await openLines(tx, kstStartOfDay(today));
  if (open.length === 0) return { settlements: 0, lines: 0 };
  const merchantIds = [...new Set(open.map((line) => line.merchantId))];
  const terms = new Map(
    (
      await tx
        .select({ id: merchants.id, feeBps: merchants.feeBps, days: merchants.settlementDays })
        .from(merchants)
        .where(inArray(merchants.id, merchantIds))
    ).map((row) => [row.id, row]),
  );
  const closedDays = await closedDaysOf(tx, merchantIds);
  const saleFees = await settledSaleFees(tx, open);
  let count = 0;
  for (const merchantId of merchantIds) {
    const term = terms.get(merchantId);
    if (!term) continue;
    const closed = closedDays.get(merchantId) ?? { days: new Set<string>(), lastNet: 0 };
    let lastNet = closed.lastNet;
    for (const [day, lines] of byDay(
      open.filter((line) => line.merchantId === merchantId),
      closed.days,
      today,
    )) {
      const priced = lines.map((line) => {
        const fee = line.kind === 'SALE' ? saleFee(line.amount, term.feeBps) : (saleFees.get(line.paymentId) ?? 0);
        if (line.kind === 'SALE') saleFees.set(line.paymentId, fee);
        return { ...line, fee };
      });
      lastNet = await writeSettlement(tx, {
        merchantId,
        day,
        feeBps: term.feeBps,
        dueDate: addBusinessDays(day, term.days),
        carriedIn: Math.min(lastNet, 0),
        lines: priced,
        at,
      });
      count++;
    }
  }
  // A due date past the holiday file's years skips weekends only: the log's alerting hears of it.
  if (!holidaysKnown(addDays(today, 14))) {
    return { settlements: count, lines: open.length, alert: 'korean-holidays.json lacks the coming year' };
  }
  return { settlements: count, lines: open.length };
}

/** Every sale and refund made before `cutoff` that no settlement holds yet, oldest first. */
async function openLines(tx: Tx, cutoff: Date): Promise<OpenLine[]> {
  const rows = await rowsOf<{
    kind: 'SALE' | 'REFUND';
    payment_id: number;
    merchant_id: number;
    amount: number;
    at: Date;
  }>(
    tx,
    sql`select 'SALE' as kind, p.id as payment_id, p.merchant_id, p.total_price as amount, p.created_at as at
        from purchases p
        where p.created_at < ${cutoff}
          and not exists (select 1 from settlement_lines l where l.kind = 'SALE' and l.payment_id = p.id)
      union all
      select 'REFUND', p.id, p.merchant_id, p.total_price, p.refunded_at
        from purchases p
        where p.refunded_at < ${cutoff}
          and not exists (select 1 from settlement_lines l where l.kind = 'REFUND' and l.payment_id = p.id)
      order by at, payment_id`,
  );
  return rows.map((row) => ({
    kind: row.kind,
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    amount: Number(row.amount),
    at: new Date(row.at),
  }));
}

/** Each merchant's days already closed, and the net of its latest settlement (carried when negative). */
async function closedDaysOf(tx: Tx, merchantIds: number[]) {
  const rows = await rowsOf<{ merchant_id: number; days: string[]; last_net: string }>(
    tx,
    sql`select merchant_id, array_agg(business_date::text) as days,
          (array_agg(net order by business_date desc))[1]::text as last_net
        from settlements where merchant_id in ${merchantIds} group by merchant_id`,
  );
  return new Map(rows.map((row) => [row.merchant_id, { days: new Set(row.days), lastNet: Number(row.last_net) }]));
}

/** The fees already charged on the sales that open refunds give back. */
async function settledSaleFees(tx: Tx, open: OpenLine[]): Promise<Map<number, number>> {
  const refunded = open.filter((line) => line.kind === 'REFUND').map((line) => line.paymentId);
  if (refunded.length === 0) return new Map();
  const rows = await rowsOf<{ payment_id: number; fee: string }>(
    tx,
    sql`select payment_id, fee::text from settlement_lines where kind = 'SALE' and payment_id in ${refunded}`,
  );
  return new Map(rows.map((row) => [row.payment_id, Number(row.fee)]));
}

/**
 * A merchant's open lines by the day that closes them, oldest day first: its own KST day, or, when that day
 * is closed already (a line committed after its close), the next day not yet closed. Days from `today` on
 * are not closed yet.
 */
function byDay(lines: OpenLine[], closed: ReadonlySet<string>, today: string): Map<string, OpenLine[]> {
  const days = new Map<string, OpenLine[]>();
  const firstOpenDay = (day: string) => {
    let candidate = day;
    while (closed.has(candidate)) candidate = nextDay(candidate);
    return candidate;
  };
  for (const line of lines) {
    const day = firstOpenDay(kstDate(line.at));
    if (day >= today) continue;
    days.set(day, [...(days.get(day) ?? []), line]);
  }
  return new Map([...days].sort(([a], [b]) => a.localeCompare(b)));
}

const nextDay = (date: string) => kstDate(new Date(kstStartOfDay(date).getTime() + 86_400_000));

/** One settlement with its lines and its event; returns its net (the next one carries it when negative). */
async function writeSettlement(
  tx: Tx,
  s: {
    merchantId: number;
    day: string;
    feeBps: number;
    dueDate: string;
    carriedIn: number;
    lines: Array<OpenLine & { fee: number }>;
    at: Date;
  },
): Promise<number> {
  const sum = (kind: OpenLine['kind'], of: 'amount' | 'fee') =>
    s.lines.filter((line) => line.kind === kind).reduce((total, line) => total + line[of], 0);
  const sales = sum('SALE', 'amount');
  const refunds = sum('REFUND', 'amount');
  const fees = sum('SALE', 'fee') - sum('REFUND', 'fee');
  const net = sales - refunds - fees + s.carriedIn;
  const payout = Math.max(net, 0);
  const [row] = await tx
    .insert(settlements)
    .values({
      merchantId: s.merchantId,
      businessDate: s.day,
      feeBps: s.feeBps,
      sales,
      refunds,
      fees,
      carriedIn: s.carriedIn,
      net,
      payout,
      dueDate: s.dueDate,
      status: payout > 0 ? 'PENDING' : 'NO_PAYOUT',
      closedAt: s.at,
    })
    .returning({ id: settlements.id });
  if (!row) throw new Error('settlement insert failed');
  await tx.insert(settlementLines).values(
    s.lines.map((line) => ({
      settlementId: row.id,
      kind: line.kind,
      paymentId: line.paymentId,
      amount: line.amount,
      fee: line.fee,
      at: line.at,
    })),
  );
  await recordEvents(
    tx,
    [
      {
        type: 'settlement.closed',
        settlementId: row.id,
        merchantId: s.merchantId,
        date: s.day,
        sales,
        refunds,
        fees,
        net,
        payout,
        dueDate: s.dueDate,
      },
    ],
    s.at,
  );
  return net;
}
