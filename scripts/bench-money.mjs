// The money writes of `npm run bench`, each a fixed number of calls timed to its last answer, judged against
// the durable-write reference (bench-durable.mjs, ADR 0244): a merchant's new payment request, the final
// with every request tapped twice, an early payment of one line, and a merchant's refund. Each load is
// checked in the database afterwards: every call did its write once, a double tap paid once.
import { doubleTappedFinals } from './bench-finals.mjs';
import { eachCall, inParallel } from './bench-load.mjs';

const randomIp = () =>
  `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;

/** A run's rate over the time to its last answer (a fixed amount ends mid-second), p99 and failed calls. */
function rateOf(run) {
  return {
    rps: Math.round(run.requests.total / run.seconds),
    p99: run.latency.p99,
    bad: run.non2xx + run.errors + run.timeouts,
  };
}

/**
 * Runs the four money writes on `count` payment requests of `shoppers` (tokens) at `merchant` (its key
 * header), `load` being the bench's autocannon run and `db` a client on the server's database. Each result
 * has `rps`, `p99`, `bad` and `checked` (what the database holds afterwards, as text) and `ok` (it holds what
 * the calls asked for).
 */
export async function moneyWrites({ base, db, shoppers, merchant, count, load }) {
  const run = `${Date.now()}`;
  // A merchant's new payment requests: their answers are the requests the shoppers then pay.
  const created = [];
  const requestCalls = Array.from({ length: count }, (_, i) => ({
    method: 'POST',
    path: '/api/merchant/payment-requests',
    headers: { ...merchant, 'x-forwarded-for': randomIp() },
    body: { orderId: `bench-${run}-${i}`, requestName: '벤치 상품', totalPrice: 100 },
  }));
  const requestRun = rateOf(
    await load(
      eachCall(base, requestCalls, (status, body) => {
        if (status < 300) created.push(JSON.parse(body));
      }),
    ),
  );
  const merchantRequest = {
    ...requestRun,
    checked: `${created.length}/${count} created`,
    ok: created.length === count,
  };

  const toPay = created.map((r, i) => ({ ...r, token: shoppers[i % shoppers.length] }));
  await inParallel(toPay.length, async (i) => {
    await fetch(`${base}/api/payment/validate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${toPay[i].token}`,
        'x-forwarded-for': randomIp(),
      },
      body: JSON.stringify({ codeType: 'pincode', value: toPay[i].pinCode }),
    }).then((res) => res.arrayBuffer());
  });
  const finalRun = rateOf(await load(doubleTappedFinals(base, toPay)));
  // Correctness under that load: one purchase per paid request, nothing twice.
  const { rows: bought } = await db.query('select id, request_id from purchases where request_id = any($1::uuid[])', [
    toPay.map((r) => r.requestId),
  ]);
  const paidRequests = new Set(bought.map((p) => p.request_id)).size;
  const doubles = bought.length - paidRequests;
  const final = {
    ...finalRun,
    doubles,
    checked: `${paidRequests.toLocaleString('en-US')}/${toPay.length.toLocaleString('en-US')} paid, ${doubles} double spends`,
    ok: doubles === 0 && paidRequests === toPay.length,
  };

  // Half the purchases paid early by their customers (one line a call), the other half refunded by the merchant.
  const tokenOf = new Map(toPay.map((r) => [r.requestId, r.token]));
  const half = Math.floor(bought.length / 2);
  const early = bought.slice(0, half);
  const refunded = bought.slice(half);
  const earlyRun = rateOf(
    await load(
      eachCall(
        base,
        early.map((p) => ({
          method: 'POST',
          path: '/api/payment/immediately',
          headers: { authorization: `Bearer ${tokenOf.get(p.request_id)}`, 'x-forwarded-for': randomIp() },
          body: [p.id],
        })),
      ),
    ),
  );
  const refundRun = rateOf(
    await load(
      eachCall(
        base,
        refunded.map((p) => ({
          method: 'POST',
          path: `/api/merchant/payment-requests/${p.request_id}/refund`,
          headers: { ...merchant, 'x-forwarded-for': randomIp() },
        })),
      ),
    ),
  );
  const statusCount = async (ids, status) => {
    const { rows } = await db.query(
      'select count(*)::int as n from purchases where id = any($1::int[]) and status = $2',
      [ids.map((p) => p.id), status],
    );
    return rows[0].n;
  };
  const repaid = await statusCount(early, 'PAID');
  const refundedNow = await statusCount(refunded, 'REFUNDED');
  return {
    merchantRequest,
    final,
    earlyPayment: { ...earlyRun, checked: `${repaid}/${early.length} repaid`, ok: repaid === early.length },
    refund: {
      ...refundRun,
      checked: `${refundedNow}/${refunded.length} refunded`,
      ok: refundedNow === refunded.length,
    },
  };
}
