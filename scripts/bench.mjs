// `npm run bench`: measures the performance budgets (architecture "Performance budgets") and prints
// one table of every figure with its target and pass/fail. Everything runs against 127.0.0.1 only, with a
// fixed number of connections and a fixed duration per load.
//
// 1. Bundles: JavaScript each route loads (gzip), from the Vite manifest of a fresh production build.
// 2. A generated fixture (never committed): 100,000 shorts, 1,000,000 reactions, 200,000 comments and
//    10,000 customers in the embedded PostgreSQL of a scratch data directory (BENCH_DATA_DIR keeps it).
// 3. Start-to-ready of the compiled server on that existing data directory.
// 4. API req/s and p99 (autocannon) as ratios to a bare Fastify route measured in the same run; the money writes
//    (bench-money.mjs: merchant request, final with a double-spend check, early payment, refund) as ratios to a
//    bare durable write (bench-durable.mjs); 1,000 open SSE streams and one payment that flips all of them.
// 5. First screens (bench-first-screens.mjs): four pages opened cold on a throttled phone, median of three.
// 6. Lighthouse mobile when BENCH_LIGHTHOUSE=1 (bench-lighthouse.mjs): seven pages, four of them signed in, each
//    the median of three runs with the machine's benchmark index per run, in a full Chromium when there is one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import pg from 'pg';
import { startDurableWrite } from './bench-durable.mjs';
import { firstScreens } from './bench-first-screens.mjs';
import { lighthouse } from './bench-lighthouse.mjs';
import { inParallel, timedLoad } from './bench-load.mjs';
import {
  accountsNeeded,
  hitRateText,
  kneeOf,
  MONEY_WRITE_BUDGET_MS,
  mixedLoad,
  mixFromEnv,
  perTypeText,
  printMixed,
  READ_BUDGET_MS,
  UPLOAD_MS_PER_MB,
  worstOf,
} from './bench-mixed.mjs';
import { moneyWrites } from './bench-money.mjs';
import { printSearchBench, searchBench } from './bench-search.mjs';
import { SWIPE_TARGET, swipeBench, swipeRow } from './bench-swipe.mjs';
import { embeddedUrl } from './embedded-url.mjs';
import { freePort } from './free-port.mjs';
import { lighthouseChromium } from './lighthouse-browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
/** BENCH_MILLION=1: the million-shorts fixture (10,000,000 reactions, 2,000,000 comments, 100,000 customers). */
const MILLION = process.env.BENCH_MILLION === '1';
const FIXTURE = MILLION
  ? { shorts: 1_000_000, reactionsPerShort: 10, commentsPerShort: 2, customers: 100_000 }
  : { shorts: 100_000, reactionsPerShort: 10, commentsPerShort: 2, customers: 10_000 };

const rows = [];
/** One line of the final table. `ok` is true/false, or null when the figure has no target. */
function row(figure, measured, target, ok) {
  rows.push({ figure, measured, target, ok });
  console.log(`  ${figure}: ${measured}${target ? ` (target ${target})` : ''}`);
}
/** `part / whole` to three decimals. */
const share = (part, whole) => Math.round((part / whole) * 1000) / 1000;
/** A money write's target: half the rate of a bare durable write on the same disk and pool (ADR 0244). */
const DURABLE_SHARE = 0.5;
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const fmt = (n) => n.toLocaleString('en-US');

// ---------- 1. bundles ----------
function bundles() {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('web build failed');
  const manifest = JSON.parse(readFileSync(join(web, 'dist/.vite/manifest.json'), 'utf8'));
  const gz = (file) => gzipSync(readFileSync(join(web, 'dist', file))).length;
  const closure = (key, seen = new Set()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return seen;
    seen.add(key);
    for (const dep of chunk.imports ?? []) closure(dep, seen);
    return seen;
  };
  const size = (keys) =>
    [...keys].reduce((sum, key) => sum + (manifest[key].file.endsWith('.js') ? gz(manifest[key].file) : 0), 0);
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = closure(entryKey);
  const dynamic = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry);
  // Routes are the pages of page-table.ts; a sheet loaded on a tap is not a route, and its closure would count
  // the page that opens it again.
  const pageTable = readFileSync(join(web, 'src/app/page-table.ts'), 'utf8');
  const pages = [...pageTable.matchAll(/import\('\.\.\/([^']+)'\)/g)].map((m) => `src/${m[1]}.`);
  const routes = dynamic.filter((key) => pages.some((page) => key.startsWith(page)));
  const chunks = routes.map((key) => {
    const own = [...closure(key)].filter((k) => !entry.has(k));
    return { route: key.replace(/^src\//, ''), kb: kb(size(own)) };
  });
  const homeKey = dynamic.find((key) => key.includes('home-route'));
  const firstLoad = kb(size(new Set([...entry, ...(homeKey ? closure(homeKey) : [])])));
  row('first-load JS of / (gzip)', `${firstLoad} KB`, '≤ 95 KB', firstLoad <= 95);
  const largest = chunks.sort((a, b) => b.kb - a.kb)[0];
  if (largest) row(`largest route chunk (${largest.route})`, `${largest.kb} KB`, '≤ 25 KB', largest.kb <= 25);
}

// ---------- server ----------
/** The bench reads cache hit counts from /metrics with this token. */
const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
const serverEnv = (port, dataDir, extraEnv = {}) => ({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'true',
  RUN_JOBS: 'false',
  PAYMENT_REQUEST_TTL_SECONDS: '3600',
  DATABASE_URL: '',
  METRICS_TOKEN: BENCH_METRICS_TOKEN,
  // The SSE row watches one request from STREAMS streams: its fan-out, not the per-request ceiling (abuse).
  STATUS_STREAMS_PER_REQUEST: String(STREAMS),
  ...extraEnv,
});

/** Starts the compiled server; resolves with the process and the ms from spawn to a 200 from /health. */
async function startServer(port, dataDir, extraEnv = {}) {
  const began = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: join(root, 'apps/server'),
    env: serverEnv(port, dataDir, extraEnv),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 6000; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return { child, readyMs: performance.now() - began };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGTERM');
  throw new Error('server did not start');
}

function stopServer(child) {
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const randomIp = () =>
  `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;

async function json(url, init = {}) {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp(), ...init.headers },
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

// ---------- 2. fixture ----------
const BENCH_PASSWORD = 'benchpass1!';

/** Generates the fixture unless the database holds it already; whether it did. */
async function ensureFixture(base, dataDir) {
  const client = new pg.Client({ connectionString: embeddedUrl(dataDir) });
  await client.connect();
  try {
    const { rows: have } = await client.query(`select count(*)::int as n from shorts where video_key like 'bench/%'`);
    if (have[0].n >= FIXTURE.shorts) return false;
    const began = performance.now();
    // One real sign-up gives a real argon2 hash every fixture customer shares (they can all log in).
    const template = `bench-template-${Date.now()}@bench.invalid`;
    await json(`${base}/api/public/register`, {
      method: 'POST',
      body: JSON.stringify({
        name: '벤치',
        emailId: template,
        pwd: BENCH_PASSWORD,
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
      }),
    });
    const { rows: demo } = await client.query(
      `select video_key, thumbnail_key from shorts where video_key like 'demo/%' order by id limit 1`,
    );
    const video = demo[0]?.video_key ?? 'demo/short-01.mp4';
    const poster = demo[0]?.thumbnail_key ?? null;
    await client.query('begin');
    // Generated rows need none of the per-row triggers (a million rank upserts and change notifications):
    // they are off for this transaction, and the ranking and the hashtags are built set-based at the end as the
    // triggers would.
    await client.query(`set local session_replication_role = replica`);
    await client.query(
      `insert into customers (email, password_hash, name, birth, account, account_name, nickname)
       select 'fx-' || g || '@bench.invalid', t.password_hash, '벤치' || g, t.birth, t.account, t.account_name, '벤치러' || g
       from generate_series(1, $1::int) g, (select * from customers where email = $2) t`,
      [FIXTURE.customers, template],
    );
    const { rows: range } = await client.query(
      `select min(id)::int as lo, max(id)::int as hi from customers where email like 'fx-%@bench.invalid'`,
    );
    const { lo, hi } = range[0];
    const span = hi - lo + 1;
    // Ids are chosen here, so every counter is known as the row is written (the reactions and comments below
    // are generated from the id): no million-row counter update afterwards. Uploaded one after another over
    // the past year, as a live table's rows are: the newest shorts sit together in its last pages. (Dates
    // spread independently of the row order made every look at the newest 2,000 read 2,000 pages.)
    const { rows: top } = await client.query(`select coalesce(max(id), 0)::int as id from shorts`);
    await client.query(
      `insert into shorts (id, customer_id, title, content, video_key, thumbnail_key, duration_ms, width, height, status,
         like_count, dislike_count, comment_count, created_at)
       select $6::int + g, $1::int + ((g::bigint * 7919) % $2::int)::int, '벤치 영상 ' || g,
         case when g % 3 = 0 then '오늘의 #벤치' || (g % 50) else '벤치 설명 ' || g end,
         'bench/' || g || '/' || $3::text, $4::text, 10000, 360, 640, 'READY',
         $7::int - ($6::int + g) % 5, ($6::int + g) % 5, $8::int,
         date_trunc('milliseconds', now() - ($5::int - g) * (interval '365 days' / $5::int))
       from generate_series(1, $5::int) g`,
      [lo, span, video, poster, FIXTURE.shorts, top[0].id, FIXTURE.reactionsPerShort, FIXTURE.commentsPerShort],
    );
    await client.query(`select setval(pg_get_serial_sequence('shorts', 'id'), (select max(id) from shorts))`);
    await client.query(
      `insert into short_reactions (short_id, customer_id, type, created_at)
       select s.id, $1::int + (s.id * 7 + k * 1013) % $2::int,
         case when k >= $3::int - (s.id % 5) then 'dislike' else 'like' end, s.created_at
       from shorts s, generate_series(0, $3::int - 1) k
       where s.video_key like 'bench/%'`,
      [lo, span, FIXTURE.reactionsPerShort],
    );
    await client.query(
      `insert into short_comments (short_id, customer_id, content, created_at)
       select s.id, $1::int + (s.id * 31 + k * 577) % $2::int, '벤치 댓글 ' || k, s.created_at + k * interval '1 minute'
       from shorts s, generate_series(1, $3::int) k where s.video_key like 'bench/%'`,
      [lo, span, FIXTURE.commentsPerShort],
    );
    await client.query(
      `insert into short_ranks (short_id, base, score, created_at)
       select s.id, short_rank_base(s.like_count, s.comment_count, s.content),
         short_rank_base(s.like_count, s.comment_count, s.content) + short_rank_freshness(c.decay_at, s.created_at),
         s.created_at
       from shorts s, short_rank_clock c where s.video_key like 'bench/%' and s.status = 'READY'
       on conflict (short_id) do update set base = excluded.base, score = excluded.score`,
    );
    await client.query(
      `insert into short_hashtags (short_id, tag, created_at)
       select s.id, t.tag, s.created_at from shorts s cross join lateral short_hashtags_of(s.content) as t(tag)
       where s.video_key like 'bench/%'`,
    );
    await client.query(`select pg_notify('feed_changed', '')`);
    await client.query('commit');
    await client.query('vacuum analyze');
    const counts = await client.query(`select
      (select count(*) from shorts)::int as shorts, (select count(*) from short_reactions)::int as reactions,
      (select count(*) from short_comments)::int as comments, (select count(*) from customers)::int as customers`);
    const c = counts.rows[0];
    console.log(
      `  fixture: ${fmt(c.shorts)} shorts, ${fmt(c.reactions)} reactions, ${fmt(c.comments)} comments, ${fmt(c.customers)} customers (${Math.round((performance.now() - began) / 1000)} s)`,
    );
    row(
      `fixture generated set-based (load average ${loadavg()[0].toFixed(1)})`,
      `${fmt(c.shorts)} shorts, ${fmt(c.reactions)} reactions, ${fmt(c.comments)} comments, ${fmt(c.customers)} customers in ${Math.round((performance.now() - began) / 1000)} s`,
      null,
      null,
    );
    return true;
  } finally {
    await client.end();
  }
}

// ---------- 4. API ----------
/** One autocannon load at the bench's duration and connections (`timedLoad`: also the time to its last answer). */
function load(opts) {
  return timedLoad({ duration: DURATION, connections: CONNECTIONS, ...opts });
}

/** Loads `opts`, checks every answer was a 2xx (304 counts as success for conditional requests). */
async function measure(opts) {
  const r = await load(opts);
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
}

async function login(base, emailId) {
  const res = await json(`${base}/auth`, { method: 'POST', body: JSON.stringify({ emailId, pwd: BENCH_PASSWORD }) });
  if (!res.body?.accessToken) throw new Error(`bench login failed for ${emailId}`);
  return res.body.accessToken;
}

async function register(base, i) {
  const emailId = `bench-${Date.now()}-${i}@bench.invalid`;
  await json(`${base}/api/public/register`, {
    method: 'POST',
    body: JSON.stringify({
      name: '벤치',
      emailId,
      pwd: BENCH_PASSWORD,
      birth: '1990-01-01',
      account: '12345678901',
      accountName: '국민',
    }),
  });
  return login(base, emailId);
}

async function api(base, dataDir) {
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
  try {
    const bareRun = await measure({ url: `${bareUrl}/bare` });
    // Its p99 shows how much of every other p99 is the machine itself.
    row('bare Fastify route', `${fmt(bareRun.rps)} req/s, p99 ${bareRun.p99} ms`, null, null);
    const ratio = (name, run, target, extra = '') => {
      const value = Math.round((run.rps / bareRun.rps) * 1000) / 1000;
      row(
        name,
        `${fmt(run.rps)} req/s = ${value}${extra}, p99 ${run.p99} ms${run.bad ? `, ${run.bad} failed` : ''}`,
        `≥ ${target}`,
        value >= target && run.bad === 0,
      );
      return run;
    };
    const p99 = (name, run, target) =>
      row(`${name} p99`, `${run.p99} ms (${fmt(run.rps)} req/s)`, `≤ ${target} ms`, run.p99 <= target && run.bad === 0);

    ratio('/health', await measure({ url: `${base}/health` }), 0.5);
    const anon = ratio(
      'anonymous feed page 1',
      await measure({ url: `${base}/api/public/shorts/feeds?page=1&size=10` }),
      0.5,
    );
    p99('anonymous feed page 1', anon, 50);

    // Logged-in readers are fixture customers: personalised pages, never served from the public cache.
    const readers = [];
    for (let i = 1; i <= 20; i++) readers.push(await login(base, `fx-${i}@bench.invalid`));
    let n = 0;
    const authed = (path) => ({
      url: `${base}${path}`,
      requests: [{ setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer ${readers[n++ % 20]}` } }) }],
    });
    const feed1 = ratio('logged-in feed page 1', await measure(authed('/api/shorts/feeds?page=1&size=10')), 0.2);
    p99('logged-in feed page 1 (100k shorts)', feed1, 50);
    // Page 50 straight away: 490 rows into the ranking index (no remembered cursor for a first visit).
    p99('logged-in feed page 50 (100k shorts)', await measure(authed('/api/shorts/feeds?page=50&size=10')), 50);

    // One short and its comments, anonymous: the short's page as a viewer opens it.
    const popular = (await json(`${base}/api/public/shorts/feeds?page=1&size=10`)).body.data.map((s) => s.shortsId);
    let k = 0;
    ratio(
      'one short + its comments (anonymous)',
      await measure({
        url: base,
        requests: [
          {
            setupRequest: (req) => {
              const id = popular[Math.floor(k / 2) % popular.length];
              return { ...req, path: k++ % 2 ? `/api/public/shorts/feeds/${id}/comments` : `/api/public/shorts/${id}` };
            },
          },
        ],
      }),
      0.3,
    );
    let m = 0;
    p99(
      'comments of a short, logged-in (past the public cache)',
      await measure({
        url: base,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              path: `/api/public/shorts/feeds/${popular[m % popular.length]}/comments`,
              headers: { authorization: `Bearer ${readers[m++ % 20]}` },
            }),
          },
        ],
      }),
      20,
    );

    // Shoppers: fresh customers with small purchases so the monthly limit is not what stops them.
    const shoppers = [];
    for (let i = 0; i < 20; i++) shoppers.push(await register(base, i));
    const merchant = { 'x-merchant-key': process.env.DEMO_MERCHANT_KEY ?? 'demo-merchant-key' };
    const makeRequests = (count, price = 1000) =>
      inParallel(count, async (i) => {
        const created = await json(`${base}/api/merchant/payment-requests`, {
          method: 'POST',
          headers: merchant,
          body: JSON.stringify({
            orderId: `bench-${Date.now()}-${i}-${Math.random()}`,
            requestName: '벤치 상품',
            totalPrice: price,
          }),
        });
        return { ...created.body, token: shoppers[i % shoppers.length] };
      });

    // validate: each shopper re-validates its own reserved code (a 200 every time).
    const toValidate = await makeRequests(shoppers.length);
    let v = 0;
    ratio(
      'validate',
      await measure({
        url: `${base}/api/payment/validate`,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const r = toValidate[v++ % toValidate.length];
              return {
                ...req,
                headers: {
                  'content-type': 'application/json',
                  authorization: `Bearer ${r.token}`,
                  'x-forwarded-for': randomIp(),
                },
                body: JSON.stringify({ codeType: 'pincode', value: r.pinCode }),
              };
            },
          },
        ],
      }),
      0.1,
    );

    // Money writes against the disk: a payment is bound by its durable commit, so each is a ratio of a bare
    // durable write measured just before them (ADR 0244); the bare route's ratio is shown beside it.
    const durable = await startDurableWrite(dataDir);
    const durableRun = await measure({ url: durable.url, method: 'POST' }).finally(() => durable.close());
    row(
      "bare durable write (one INSERT … COMMIT per request, the server's pool size)",
      `${fmt(durableRun.rps)} req/s = ${share(durableRun.rps, bareRun.rps)} of bare, p99 ${durableRun.p99} ms${durableRun.bad ? `, ${durableRun.bad} failed` : ''}`,
      null,
      null,
    );
    const db = new pg.Client({ connectionString: embeddedUrl(dataDir) });
    await db.connect();
    const money = await moneyWrites({
      base,
      db,
      shoppers,
      merchant,
      count: Number(process.env.BENCH_FINALS ?? 4000),
      load,
    });
    for (const [name, run] of [
      ['merchant request (a new payment request)', money.merchantRequest],
      ['final (each request tapped twice)', money.final],
      ['early payment (one line a call)', money.earlyPayment],
      ['refund (by the merchant)', money.refund],
    ]) {
      const value = share(run.rps, durableRun.rps);
      row(
        name,
        `${fmt(run.rps)} req/s = ${value} of the durable write (${share(run.rps, bareRun.rps)} of bare), p99 ${run.p99} ms; ${run.checked}${run.bad ? `, ${run.bad} failed` : ''}`,
        `≥ ${DURABLE_SHARE} of the durable write${run === money.final ? ', 0 double spends' : ''}`,
        value >= DURABLE_SHARE && run.ok && run.bad === 0,
      );
    }

    await sse(base, merchant, shoppers[0], db);
    await db.end();
  } finally {
    await bare.close();
  }
}

/** STREAMS open SSE streams watching one request; one payment must reach every one of them. */
async function sse(base, merchant, token, db) {
  const [request] = await (async () => {
    const created = await json(`${base}/api/merchant/payment-requests`, {
      method: 'POST',
      headers: merchant,
      body: JSON.stringify({ orderId: `bench-sse-${Date.now()}`, requestName: '벤치 스트림', totalPrice: 100 }),
    });
    return [created.body];
  })();
  const url = new URL(`${base}/api/merchant/payment-requests/${request.requestId}/events`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const sockets = [];
  let paidAt = 0;
  const flips = [];
  const opened = await Promise.all(
    Array.from(
      { length: STREAMS },
      () =>
        new Promise((resolve, reject) => {
          const req = http.get(url, { agent, headers: merchant }, (res) => {
            let buffer = '';
            let first = true;
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              buffer += chunk;
              if (first && buffer.includes('"ACTIVE"')) {
                first = false;
                resolve(res);
              }
              if (buffer.includes('"PAID"') && paidAt) {
                flips.push(performance.now() - paidAt);
                res.destroy();
              }
            });
          });
          req.on('error', reject);
          sockets.push(req);
        }),
    ),
  );
  // Idle cost: statements the database ran in 3 s with every stream open and nothing happening.
  const before = await db.query(
    `select xact_commit::bigint as n from pg_stat_database where datname = current_database()`,
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = await db.query(
    `select xact_commit::bigint as n from pg_stat_database where datname = current_database()`,
  );
  // pg_stat counters are per transaction; our own two reads count, so 2 means nothing else ran.
  const idleTx = Math.max(0, Number(after.rows[0].n) - Number(before.rows[0].n) - 1);
  await json(`${base}/api/payment/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({ codeType: 'pincode', value: request.pinCode }),
  });
  paidAt = performance.now();
  const paid = await fetch(`${base}/api/payment/final?point=0&requestId=${request.requestId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const deadline = Date.now() + 30_000;
  while (flips.length < opened.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const req of sockets) req.destroy();
  const slowest = flips.length ? Math.round(Math.max(...flips)) : null;
  row(
    `${fmt(STREAMS)} open SSE streams, one payment`,
    `${opened.length} open, ${idleTx} database transactions in 3 s idle; payment ${paid.status}; ${flips.length} flipped to PAID, slowest after ${slowest} ms`,
    `all ${fmt(STREAMS)} flip`,
    paid.ok && flips.length === STREAMS,
  );
}

// ---------- mixed load ----------
/** What the mixed model reads from /metrics at each step's start and end: the public caches, the loop. */
async function serverCounters(base) {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  const text = await res.text();
  const value = (series) => Number(text.match(new RegExp(`^${series} (\\S+)$`, 'm'))?.[1] ?? 0);
  const countsOf = (cache) => ({
    hits: value(`cache_hits_total\\{cache="${cache}"\\}`),
    misses: value(`cache_misses_total\\{cache="${cache}"\\}`),
  });
  return {
    publicFeed: countsOf('public-feed'),
    publicSearch: countsOf('public-search'),
    loopBusySeconds: value('event_loop_busy_seconds_total'),
  };
}

async function mixed(base) {
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareRun = await measure({ url: `${bareUrl}/bare` });
  await bare.close();
  const mix = mixFromEnv();
  const searchTail = Number(process.env.BENCH_SEARCH_TAIL ?? 0.5);
  const steps = (process.env.BENCH_RAMP ?? '10,20,40,80,160,320,480,640,720,800').split(',').map(Number);
  // Past the planned steps while they all pass (bench-mixed.mjs); the accounts cover the farthest step.
  const upTo = Math.max(...steps, Number(process.env.BENCH_RAMP_UP_TO ?? 1600));
  const needed = accountsNeeded(upTo, mix);
  const viewers = await inParallel(needed.signedIn, (i) => login(base, `fx-${i + 1}@bench.invalid`), 4);
  const payers = await inParallel(needed.payers, (i) => register(base, `mix-${i}`), 4);
  const results = await mixedLoad({
    base,
    viewers,
    payers,
    merchantKey: process.env.DEMO_MERCHANT_KEY ?? 'demo-merchant-key',
    serverCounters: () => serverCounters(base),
    thinkMs: Number(process.env.BENCH_THINK_MS ?? 1000),
    steps,
    stepSeconds: Number(process.env.BENCH_STEP_SECONDS ?? 15),
    warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 15),
    arrivalSeconds: Number(process.env.BENCH_ARRIVAL_SECONDS ?? 5),
    mix,
    searchTail,
    upTo,
  });
  printMixed(results);
  const load1 = loadavg()[0].toFixed(1);
  const knee = kneeOf(results);
  const shares = Object.entries(mix)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  row(
    `mixed load knee (users with every call type's p99 within its budget, no errors: reads ${READ_BUDGET_MS} ms, money writes ${MONEY_WRITE_BUDGET_MS} ms, an upload ${MONEY_WRITE_BUDGET_MS} ms + ${UPLOAD_MS_PER_MB} ms per MB; ${shares}; think ${process.env.BENCH_THINK_MS ?? 1000} ms; load average ${load1})`,
    !knee
      ? `none (already over at ${steps[0]} users)`
      : knee === results.at(-1)
        ? `≥ ${knee.users} users, ${Math.round(knee.total)} req/s (every step passed up to BENCH_RAMP_UP_TO)`
        : `${knee.users} users, ${Math.round(knee.total)} req/s`,
    'reported',
    null,
  );
  const at = knee ?? results.find((r) => !r.warmup);
  const ratio = Math.round((at.total / bareRun.rps) * 1000) / 1000;
  row(
    `mixed throughput at the knee / bare route (${fmt(bareRun.rps)} req/s)`,
    `${ratio}`,
    '≥ 0.05',
    knee !== null && ratio >= 0.05,
  );
  const hit = at.hitRate;
  row(
    'anonymous feed cache hit rate under the mix',
    hit === null ? 'no anonymous feed reads' : hitRateText(hit),
    '≥ 90 %',
    hit !== null && hit >= 0.9,
  );
  // Reported, not a target: it is what the model's share of one-off queries (BENCH_SEARCH_TAIL) leaves.
  const searchHit = at.searchHitRate;
  row(
    `anonymous search cache hit rate under the mix (one-off queries ${searchTail})`,
    searchHit === null ? 'no anonymous searches' : hitRateText(searchHit),
    'reported',
    null,
  );
  row('p99 per call type at the knee / its budget', perTypeText(at), 'each within its budget', knee !== null);
  const worst = worstOf(at);
  row(
    `p99 nearest its budget at the knee (${worst.type})`,
    `${Math.round(worst.p99 * 10) / 10} ms`,
    `≤ ${worst.budget} ms`,
    knee !== null && worst.p99 <= worst.budget,
  );
}

// ---------- a million shorts ----------
/** p99 of `count` sequential GETs (one connection: the query's own time, not queueing). */
async function sequentialP99(base, paths, count, token) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${paths[i % paths.length]}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length * 0.99)] * 10) / 10;
}

async function million(base, dataDir) {
  const client = new pg.Client({ connectionString: embeddedUrl(dataDir) });
  await client.connect();
  try {
    const load1 = () => loadavg()[0].toFixed(1);
    const { rows: ids } = await client.query(
      `select id from shorts where video_key like 'bench/%' order by random() limit 500`,
    );
    const shortIds = ids.map((r) => r.id);
    const reader = await login(base, 'fx-1@bench.invalid');
    // Signed-in pages go past the public cache; the server runs with PUBLIC_CACHE_MS=0, so every page is
    // read from the ranking (page 50 by offset: a first visit has no remembered cursor).
    const n = Number(process.env.BENCH_MILLION_SAMPLES ?? 300);
    const page1 = await sequentialP99(base, ['/api/shorts/feeds?page=1&size=10'], n, reader);
    row(`1M shorts: feed page 1 p99 (load average ${load1()})`, `${page1} ms`, '≤ 50 ms', page1 <= 50);
    const page50 = await sequentialP99(base, ['/api/shorts/feeds?page=50&size=10'], n, reader);
    row(`1M shorts: feed page 50 p99 (load average ${load1()})`, `${page50} ms`, '≤ 50 ms', page50 <= 50);
    const comments = await sequentialP99(
      base,
      shortIds.map((id) => `/api/public/shorts/feeds/${id}/comments`),
      Math.min(n, shortIds.length),
    );
    row(
      `1M shorts: comments of a short p99, first read (load average ${load1()})`,
      `${comments} ms`,
      '≤ 20 ms',
      comments <= 20,
    );
    const words = ['벤치', '오늘', '#벤치7', '설명 12', 'ㅂㅊ', '벤치러9'];
    const search = await sequentialP99(
      base,
      words.map((w) => `/api/public/shorts/search?q=${encodeURIComponent(w)}&limit=8`),
      n,
    );
    row(`1M shorts: search p99 (load average ${load1()})`, `${search} ms`, '≤ 50 ms', search <= 50);
    // The minute's ranking refresh, as the app runs it, timed in a transaction that is rolled back.
    await client.query('begin');
    const began = performance.now();
    const refreshed = await client.query(
      `update short_ranks set score = base + short_rank_freshness(now(), created_at)
       where created_at > now() - interval '61 days'`,
    );
    const refreshMs = Math.round(performance.now() - began);
    await client.query('rollback');
    row(
      `1M shorts: ranking refresh (load average ${load1()})`,
      `${refreshMs} ms per minute (${fmt(refreshed.rowCount)} rows) = ${Math.round((refreshMs / 60_000) * 1000) / 10} % of one core`,
      null,
      null,
    );
    if (process.env.BENCH_PLANS === '1') {
      await printPlans(client, shortIds[0]);
      printSearchPlans(embeddedUrl(dataDir), words);
    }
  } finally {
    await client.end();
  }
}

/** EXPLAIN ANALYZE of the feed (page 1, page 50 by offset and by cursor), comments and a search. */
async function printPlans(client, shortId) {
  const feed = (tail) => `select s.id, s.title, c.nickname from short_ranks r
    join shorts s on s.id = r.short_id join customers c on c.id = s.customer_id
    where s.status = 'READY' ${tail}`;
  const { rows: cut } = await client.query(
    `select score::text, created_at::text, short_id from short_ranks order by score desc, created_at desc, short_id desc offset 489 limit 1`,
  );
  const c = cut[0];
  const plans = {
    'feed page 1': feed('order by r.score desc, r.created_at desc, r.short_id desc limit 11'),
    'feed page 50 (offset, ids from the ranking index first, as the app reads it)': feed(
      `and r.short_id in (select r2.short_id from short_ranks r2
        order by r2.score desc, r2.created_at desc, r2.short_id desc limit 11 offset 490)
       order by r.score desc, r.created_at desc, r.short_id desc limit 11`,
    ),
    'feed page 50 (remembered cursor)': feed(
      `and (r.score, r.created_at, r.short_id) < (${c.score}::float8, '${c.created_at}'::timestamptz, ${c.short_id}) order by r.score desc, r.created_at desc, r.short_id desc limit 11`,
    ),
    comments: `select sc.id, sc.content, cu.nickname from short_comments sc join customers cu on cu.id = sc.customer_id
      where sc.short_id = ${Number(shortId)} order by sc.id`,
  };
  for (const [name, query] of Object.entries(plans)) {
    const { rows } = await client.query(`explain (analyze, buffers, costs off) ${query}`);
    console.log(`\n#### ${name}\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
  }
}

/** Every statement of a search for each word, as the search service sends it, with its plan. */
function printSearchPlans(url, words) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/modules/shorts/search-plans.ts', url, ...words], {
    cwd: join(root, 'apps/server'),
    stdio: 'inherit',
  });
  if (run.status !== 0) console.log('search plans failed');
}

// ---------- chat turn ----------
/** In-process chat-turn micro-benchmark of the server (apps/server/src/test/chat-bench.ts). */
function chatBench() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/test/chat-bench.ts'], {
    cwd: join(root, 'apps/server'),
    env: { ...process.env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    row('chat turn on the server p99', `failed: ${run.stderr.slice(-200)}`, '≤ 10 ms', false);
    return;
  }
  const chat = JSON.parse(run.stdout.trim().split('\n').at(-1));
  row(
    'chat turn on the server p99',
    `${chat.server?.p99} ms (engine p99 ${chat.engine?.p99} ms)`,
    `≤ ${chat.budgetMs ?? 10} ms`,
    chat.ok === true,
  );
}

// ---------- the fixture's snapshot ----------
// Every run writes: the mixed model comments (a popular short held ~300 comments after a day of runs, 600
// the next), reacts, opens views, uploads shorts and signs up customers. A kept data directory would carry
// all of it into the next run, whose comment lists, search results and ranking would then differ from the
// last run's. So a kept directory holds a snapshot of the database and media as generated, and each run
// starts from a copy of it (ADR 0163). `cp -a` keeps owners and modes (the embedded PostgreSQL may run as its own user).
const SNAPSHOT = 'fixture-snapshot';
const SNAPSHOT_PARTS = ['postgres', 'media'];
/** Written into a directory the bench made: only such a one is ever emptied (never an app's data directory). */
const BENCH_MARK = 'ohgood-bench-data-dir';

/** Waits until no PostgreSQL runs on the data directory (the server stops the one it started as it exits). */
async function clusterStopped(dataDir) {
  for (let i = 0; i < 600 && existsSync(join(dataDir, 'postgres/postmaster.pid')); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (existsSync(join(dataDir, 'postgres/postmaster.pid'))) throw new Error('PostgreSQL is still running');
}

function copyParts(from, to) {
  const began = performance.now();
  mkdirSync(to, { recursive: true });
  for (const part of SNAPSHOT_PARTS) {
    rmSync(join(to, part), { recursive: true, force: true });
    if (!existsSync(join(from, part))) continue;
    const copied = spawnSync('cp', ['-a', join(from, part), join(to, part)], { stdio: 'inherit' });
    if (copied.status !== 0) throw new Error(`copying ${part} failed`);
  }
  // On disk before the server starts: the kernel writes a fresh copy back ~30 s later otherwise, and its
  // 1.3 GB (100,000 shorts) held the database's commits behind it for a second or two mid-load.
  spawnSync('sync', { stdio: 'inherit' });
  return Math.round((performance.now() - began) / 1000);
}

/**
 * Before a run on a kept data directory: back to the fixture as generated. A bench directory from before
 * snapshots holds earlier runs' writes that cannot be told apart, so it starts over (the fixture is generated
 * again); a database the bench did not make is refused, never emptied.
 */
function restoreFixture(dataDir) {
  if (existsSync(join(dataDir, SNAPSHOT, 'postgres/PG_VERSION'))) {
    const seconds = copyParts(join(dataDir, SNAPSHOT), dataDir);
    row('fixture restored from its snapshot (every run starts from the generated data)', `${seconds} s`, null, null);
  } else if (existsSync(join(dataDir, 'postgres/PG_VERSION'))) {
    if (!existsSync(join(dataDir, BENCH_MARK))) {
      throw new Error(
        `BENCH_DATA_DIR ${dataDir} holds a database the bench did not make (no ${BENCH_MARK} file): give it an empty directory, or delete this one`,
      );
    }
    console.log('  the data directory has no fixture snapshot (earlier runs wrote to it): generating it again');
    for (const part of SNAPSHOT_PARTS) rmSync(join(dataDir, part), { recursive: true, force: true });
  }
  writeFileSync(
    join(dataDir, BENCH_MARK),
    'A data directory of `npm run bench` (scripts/bench.mjs), emptied at will.\n',
  );
}

/** On a kept data directory, once the fixture is generated (the server stopped), or when none was taken. */
async function snapshotFixture(dataDir, generated) {
  if (!generated && existsSync(join(dataDir, SNAPSHOT, 'postgres/PG_VERSION'))) return;
  await clusterStopped(dataDir);
  const seconds = copyParts(dataDir, join(dataDir, SNAPSHOT));
  console.log(`  fixture snapshot taken (${seconds} s)`);
}

// ---------- run ----------
if (process.env.BENCH_SKIP_BUNDLES !== '1') {
  console.log('== Bundles');
  bundles();
}
if (process.env.BENCH_SKIP_API !== '1') {
  console.log('== Server');
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('server build failed');
  const kept = process.env.BENCH_DATA_DIR !== undefined;
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'ohgood-bench-'));
  mkdirSync(dataDir, { recursive: true });
  if (kept) restoreFixture(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const fresh = !existsSync(join(dataDir, 'postgres/PG_VERSION'));
  let server = await startServer(port, dataDir);
  if (fresh)
    row('first start (initialise PostgreSQL, migrate, demo data)', `${Math.round(server.readyMs)} ms`, null, null);
  console.log('== Fixture');
  const generated = await ensureFixture(base, dataDir);
  await stopServer(server.child);
  if (kept) await snapshotFixture(dataDir, generated);
  if (process.env.BENCH_FIXTURE_ONLY === '1') process.exit(0);
  // Start-to-ready with an existing data directory: spawn to the first 200 from /health.
  server = await startServer(port, dataDir);
  row(
    `start-to-ready (existing data dir; load average ${loadavg()[0].toFixed(1)})`,
    `${Math.round(server.readyMs)} ms`,
    '≤ 1,000 ms',
    server.readyMs <= 1000,
  );
  try {
    if (process.env.BENCH_SKIP_LOAD !== '1') {
      console.log('== API');
      await api(base, dataDir);
    }
    if (process.env.BENCH_SKIP_MIXED !== '1') {
      console.log('== Mixed load');
      process.env.BENCH_MEDIA_DIR ??= join(dataDir, 'media');
      await mixed(base);
    }
    if (process.env.BENCH_SKIP_FIRST_SCREENS !== '1') {
      console.log('== First screens');
      await firstScreens({ base, used: lighthouseChromium(root), row }).catch((error) =>
        row('first screens', `failed: ${error}`, '≤ 1,000 ms', false),
      );
    }
    if (process.env.BENCH_LIGHTHOUSE === '1') {
      console.log('== Lighthouse');
      await lighthouse({ base, root, row });
    }
  } finally {
    await stopServer(server.child);
  }
  if (MILLION) {
    console.log('== A million shorts');
    // No public answer cache: every figure is the database's work at this size.
    server = await startServer(port, dataDir, { PUBLIC_CACHE_MS: '0', PUBLIC_FEED_CACHE_MS: '0' });
    try {
      await million(base, dataDir);
    } finally {
      await stopServer(server.child);
    }
  }
}
if (process.env.BENCH_SKIP_SEARCH !== '1') {
  console.log('== Search');
  const search = await searchBench();
  printSearchBench(search);
  const p99 = search.sequential.p99ms;
  row(
    `search p99 at 100,000 shorts (${search.engine})`,
    `${p99} ms`,
    `≤ ${search.budgetP99ms} ms`,
    search.withinBudget === true,
  );
}
if (process.env.BENCH_SKIP_CHAT !== '1') {
  console.log('== Chat');
  chatBench();
}
if (process.env.BENCH_SKIP_SWIPE !== '1') {
  console.log('== Swipe');
  const swipe = await swipeBench(lighthouseChromium(root)).then(swipeRow, (error) => ({
    measured: `failed: ${error}`,
    ok: false,
  }));
  row('next short after a swipe: to its first frame', swipe.measured, SWIPE_TARGET, swipe.ok);
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
// Ratios compare with the bare route of the same run, but on a machine busy with other work every figure
// is noisy: the load average says how busy it was.
const load1 = loadavg()[0].toFixed(1);
console.log(
  `\n## Bench (${new Date().toISOString().slice(0, 16)}Z; ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; load average ${load1}; ${CONNECTIONS} connections, ${DURATION} s per load)\n`,
);
console.log('| figure | measured | target | pass |');
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.figure} | ${r.measured} | ${r.target ?? '—'} | ${r.ok === null ? '—' : r.ok ? 'yes' : '**no**'} |`,
  );
process.exit(rows.some((r) => r.ok === false) ? 1 : 0);
