// `npm run bench`: measures the performance budgets of docs (architecture "Performance budgets").
// 1. JavaScript each route loads (gzip), from the Vite manifest of a fresh production build.
// 2. API throughput and p99 under load (autocannon) for feed, search, validate and final, each as a ratio to
//    a bare Fastify route measured in the same run; after the final run, checks that nothing was paid twice.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

function kb(bytes) {
  return Math.round((bytes / 1024) * 10) / 10;
}

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
  const routes = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry);
  const rows = routes.map((key) => {
    const own = [...closure(key)].filter((k) => !entry.has(k));
    return { route: key.replace(/^src\//, ''), kb: kb(size(own)) };
  });
  const homeKey = routes.find((key) => key.includes('home-route'));
  const firstLoad = size(new Set([...entry, ...(homeKey ? closure(homeKey) : [])]));
  return { firstLoadKb: kb(firstLoad), entryKb: kb(size(entry)), routes: rows.sort((a, b) => b.kb - a.kb) };
}

// ---------- 2. API ----------
async function startServer(port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(root, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      RUN_JOBS: 'false',
      PAYMENT_REQUEST_TTL_SECONDS: '3600',
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error('server did not start');
}

function load(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
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

async function api() {
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
  const port = 39000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port, mkdtempSync(join(tmpdir(), 'ohgood-bench-')));
  const results = {};
  const record = (name, r) => {
    results[name] = {
      reqPerSec: Math.round(r.requests.average),
      p99ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    };
  };
  try {
    record('bare', await load({ url: `${bareUrl}/bare` }));

    const feed = await fetch(`${base}/api/public/shorts/feeds?page=1&size=10`);
    if (feed.ok) record('feed', await load({ url: `${base}/api/public/shorts/feeds?page=1&size=10` }));
    const search = await fetch(`${base}/api/public/shorts/search?q=${encodeURIComponent('커피')}&limit=8`);
    if (search.ok)
      record('search', await load({ url: `${base}/api/public/shorts/search?q=${encodeURIComponent('커피')}&limit=8` }));

    // Shoppers: customers with small purchases so the monthly limit is not what stops them.
    const customers = [];
    for (let i = 0; i < 20; i++) {
      const emailId = `bench-${Date.now()}-${i}@example.com`;
      await json(`${base}/api/public/register`, {
        method: 'POST',
        body: JSON.stringify({
          name: '벤치',
          emailId,
          pwd: 'benchpass1!',
          birth: '1990-01-01',
          account: '12345678901',
          accountName: '국민',
        }),
      });
      const login = await json(`${base}/auth`, {
        method: 'POST',
        body: JSON.stringify({ emailId, pwd: 'benchpass1!' }),
      });
      customers.push(login.body.accessToken);
    }
    const merchant = { 'x-merchant-key': process.env.DEMO_MERCHANT_KEY ?? 'demo-merchant-key' };
    const makeRequests = async (count) => {
      const made = [];
      for (let i = 0; i < count; i++) {
        const created = await json(`${base}/api/merchant/payment-requests`, {
          method: 'POST',
          headers: merchant,
          body: JSON.stringify({
            orderId: `bench-${Date.now()}-${i}-${Math.random()}`,
            requestName: '벤치 상품',
            totalPrice: 1000,
          }),
        });
        made.push({ ...created.body, token: customers[i % customers.length] });
      }
      return made;
    };

    // validate: each shopper re-validates its own reserved code (a 200 every time).
    const toValidate = await makeRequests(customers.length);
    let v = 0;
    record(
      'validate',
      await load({
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
    );

    // final: every request is sent twice (a double tap) while the load runs.
    const toPay = await makeRequests(Number(process.env.BENCH_FINALS ?? 600));
    for (const r of toPay) {
      await json(`${base}/api/payment/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.token}` },
        body: JSON.stringify({ codeType: 'pincode', value: r.pinCode }),
      });
    }
    let f = 0;
    record(
      'final',
      await load({
        url: `${base}/api/payment/final`,
        amount: toPay.length * 2,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const r = toPay[Math.floor(f++ / 2) % toPay.length];
              return {
                ...req,
                path: `/api/payment/final?point=0&requestId=${r.requestId}`,
                headers: { authorization: `Bearer ${r.token}` },
              };
            },
          },
        ],
      }),
    );
    // Correctness under that load: one purchase per paid request, nothing twice.
    let purchases = 0;
    for (const token of customers) {
      const history = await json(`${base}/api/payment/history`, { headers: { authorization: `Bearer ${token}` } });
      purchases += history.body.length;
    }
    const paidIds = new Set(toPay.map((r) => r.requestId));
    results.finalCorrectness = {
      requests: paidIds.size,
      purchasesForThem: purchases,
      doubleSpend: purchases > paidIds.size,
    };
  } finally {
    server.kill('SIGTERM');
    await bare.close();
  }
  const bareRps = results.bare.reqPerSec;
  for (const r of Object.values(results)) {
    if (r.reqPerSec) r.ratioToBare = Math.round((r.reqPerSec / bareRps) * 1000) / 1000;
  }
  return results;
}

// ---------- 3. Lighthouse (optional: BENCH_LIGHTHOUSE=1; needs xvfb-run, as headless Chromium reports NO_FCP) ----------
function lighthouse(base, paths) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const flags = '--no-sandbox --disable-gpu --disable-background-networking --disable-dev-shm-usage';
  const scores = {};
  for (const path of paths) {
    const out = join(mkdtempSync(join(tmpdir(), 'ohgood-lh-')), 'report.json');
    const run = spawnSync(
      'xvfb-run',
      [
        '-a',
        'npx',
        '-y',
        'lighthouse@12',
        `${base}${path}`,
        '--only-categories=performance,accessibility',
        '--form-factor=mobile',
        `--chrome-flags=${flags}`,
        '--output=json',
        `--output-path=${out}`,
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: chrome }, stdio: 'ignore', timeout: 240_000 },
    );
    if (run.status !== 0) {
      scores[path] = { error: `lighthouse exited ${run.status}` };
      continue;
    }
    const lhr = JSON.parse(readFileSync(out, 'utf8'));
    scores[path] = {
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      lcp: lhr.audits['largest-contentful-paint'].displayValue,
    };
  }
  return scores;
}

// ---------- 3. chat turn (issue 10) ----------
/** In-process chat-turn micro-benchmark of the server (apps/server/src/modules/chat/chat-bench.ts). */
function chatBench() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/modules/chat/chat-bench.ts'], {
    cwd: join(root, 'apps/server'),
    env: { ...process.env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (run.status !== 0) return { error: run.stderr.slice(-500) };
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

const report = { bundles: bundles() };
console.log('\n== Bundles (gzip KB)');
console.log(`first load of /: ${report.bundles.firstLoadKb} KB (budget 100)`);
for (const r of report.bundles.routes) console.log(`  ${r.route}: ${r.kb} KB${r.kb > 60 ? '  OVER 60' : ''}`);
if (process.env.BENCH_SKIP_API !== '1') {
  report.api = await api();
  console.log(`\n== API (${CONNECTIONS} connections, ${DURATION} s each)`);
  console.table(report.api);
}
if (process.env.BENCH_SKIP_CHAT !== '1') {
  report.chat = chatBench();
  console.log(`\n== Chat turn on the server (${report.chat.database ?? '?'}; budget p99 ≤ 20 ms)`);
  console.table({ server: report.chat.server, engine: report.chat.engine });
}
if (process.env.BENCH_LIGHTHOUSE === '1') {
  const port = 38000 + Math.floor(Math.random() * 1000);
  const server = await startServer(port, mkdtempSync(join(tmpdir(), 'ohgood-lh-data-')));
  try {
    report.lighthouse = lighthouse(`http://127.0.0.1:${port}`, ['/', '/shorts/feeds', '/login']);
  } finally {
    server.kill('SIGTERM');
  }
  console.log('\n== Lighthouse (mobile)');
  console.table(report.lighthouse);
}
const failed =
  report.bundles.firstLoadKb > 100 ||
  report.bundles.routes.some((r) => r.kb > 60) ||
  report.api?.finalCorrectness?.doubleSpend ||
  (report.chat !== undefined && report.chat.ok !== true);
process.exit(failed ? 1 : 0);
