// `npm run bench:final`: the payment final's throughput, today's tree against an earlier commit's, in the same
// run on the same machine (docs/performance.md). The earlier commit (BENCH_FINAL_BASE, default the last commit
// before ADR 0112) is checked out into a temporary git worktree that borrows this tree's node_modules, and
// both servers are compiled. Then, in rounds that alternate old and new (so a machine that gets busier
// mid-run hurts both alike), each server on a fresh data directory pays BENCH_FINALS requests of 20
// customers, each request tapped twice, under the same autocannon load as `npm run bench`; and a bare
// Fastify route is measured before each round. It prints every round's req/s, ratio to the bare route and
// double spends (purchases − paid requests, which must be 0).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { doubleTappedFinals } from './bench-finals.mjs';
import { inParallel, timedLoad } from './bench-load.mjs';
import { embeddedUrl } from './embedded-url.mjs';
import { freePort } from './free-port.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.BENCH_FINAL_BASE ?? 'a4aa8c5';
const FINALS = Number(process.env.BENCH_FINALS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PASSWORD = 'benchpass1!';

function run(cmd, args, cwd) {
  const done = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (done.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}`);
}

/** The tree at `commit` in a temporary worktree, with this tree's node_modules, its server compiled. */
function baseTree(commit) {
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-final-base-'));
  run('git', ['worktree', 'add', '--detach', dir, commit], root);
  for (const modules of ['node_modules', 'apps/server/node_modules', 'apps/web/node_modules']) {
    if (existsSync(join(root, modules))) symlinkSync(join(root, modules), join(dir, modules));
  }
  run(process.execPath, ['scripts/build-server.mjs'], dir);
  return dir;
}

async function startServer(tree) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-final-data-'));
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(tree, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      RUN_JOBS: 'false',
      PAYMENT_REQUEST_TTL_SECONDS: '3600',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 6000; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base, dataDir };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('server did not start');
}

const stop = ({ child, dataDir }) =>
  new Promise((resolve) => {
    child.once('exit', () => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve();
    });
    child.kill('SIGTERM');
  });

const ip = () =>
  `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;
async function json(url, init = {}) {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(), ...init.headers },
  });
  return res.json().catch(() => null);
}

function load(opts) {
  return timedLoad({ connections: CONNECTIONS, ...opts });
}

async function bareRps() {
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  const url = await bare.listen({ host: '127.0.0.1', port: 0 });
  try {
    return Math.round((await load({ url: `${url}/bare`, duration: 8 })).requests.average);
  } finally {
    await bare.close();
  }
}

/** Pays FINALS requests on `tree`'s server, each tapped twice; req/s and double spends. */
async function finals(tree) {
  const server = await startServer(tree);
  try {
    const { base } = server;
    const shoppers = await inParallel(20, async (i) => {
      const emailId = `final-${Date.now()}-${i}@bench.invalid`;
      await json(`${base}/api/public/register`, {
        method: 'POST',
        body: JSON.stringify({
          name: '벤치',
          emailId,
          pwd: PASSWORD,
          birth: '1990-01-01',
          account: '12345678901',
          accountName: '국민',
        }),
      });
      return (await json(`${base}/auth`, { method: 'POST', body: JSON.stringify({ emailId, pwd: PASSWORD }) }))
        .accessToken;
    });
    const merchant = { 'x-merchant-key': process.env.DEMO_MERCHANT_KEY ?? 'demo-merchant-key' };
    const toPay = await inParallel(FINALS, async (i) => {
      const created = await json(`${base}/api/merchant/payment-requests`, {
        method: 'POST',
        headers: merchant,
        body: JSON.stringify({ orderId: `final-${i}-${Math.random()}`, requestName: '벤치 상품', totalPrice: 100 }),
      });
      const token = shoppers[i % shoppers.length];
      await json(`${base}/api/payment/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ codeType: 'pincode', value: created.pinCode }),
      });
      return { requestId: created.requestId, token };
    });
    const result = await load(doubleTappedFinals(base, toPay));
    const db = new pg.Client({ connectionString: embeddedUrl(server.dataDir) });
    await db.connect();
    const counted = await db.query(
      'select count(*)::int as purchases, count(distinct request_id)::int as requests from purchases where request_id = any($1::uuid[])',
      [toPay.map((r) => r.requestId)],
    );
    await db.end();
    const { purchases, requests } = counted.rows[0];
    return {
      rps: Math.round(result.requests.total / result.seconds),
      p99: result.latency.p99,
      non2xx: result.non2xx,
      paid: requests,
      doubles: purchases - requests,
    };
  } finally {
    await stop(server);
  }
}

const baseDir = baseTree(BASE);
try {
  run(process.execPath, ['scripts/build-server.mjs'], root);
  const trees = [
    [`${BASE} (batched, SQL functions)`, baseDir],
    ['this tree (one TypeScript transaction)', root],
  ];
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, tree] of round % 2 ? trees : [...trees].reverse()) {
      const bare = await bareRps();
      const r = await finals(tree);
      const line = {
        round,
        name,
        bare,
        ...r,
        ratio: Math.round((r.rps / bare) * 1000) / 1000,
        load: loadavg()[0].toFixed(1),
      };
      console.log(line);
      rows.push(line);
    }
  }
  console.log(
    `\n## Final: ${FINALS} requests × 2 taps, ${CONNECTIONS} connections; ${cpus().length} × ${cpus()[0]?.model}\n`,
  );
  console.log('| round | server | bare req/s | final req/s | ratio | p99 ms | paid | double spends | load avg |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.round} | ${r.name} | ${r.bare} | ${r.rps} | ${r.ratio} | ${r.p99} | ${r.paid}/${FINALS} | ${r.doubles} | ${r.load} |`,
    );
  process.exitCode = rows.some((r) => r.doubles !== 0 || r.paid !== FINALS) ? 1 : 0;
} finally {
  spawnSync('git', ['worktree', 'remove', '--force', baseDir], { cwd: root, stdio: 'inherit' });
}
