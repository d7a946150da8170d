// Search at scale: 100,000 shorts on PostgreSQL, search p99 (budget ≤ 50 ms).
// Called by `npm run bench`; also runs alone: `node scripts/bench-search.mjs`.
// The fixture is generated into the embedded PostgreSQL of a throw-away data directory (the engine the app
// ships with), or, with BENCH_DATABASE_URL, into a throw-away database on that server; both are removed
// afterwards and nothing is written to the repository.
// Only 127.0.0.1 is contacted, and every phase is bounded (fixed row count, request count and duration).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { embeddedUrl } from './embedded-url.mjs';
import { freePort } from './free-port.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHORTS = Number(process.env.BENCH_SEARCH_SHORTS ?? 100_000);
const CREATORS = 2_000;
const SEQUENTIAL = Number(process.env.BENCH_SEARCH_REQUESTS ?? 600);
const P99_BUDGET_MS = 50;

// Query mix: common and rare words, initial consonants, a hashtag, Latin, a nickname, and LIKE wildcards.
const QUERIES = [
  '커피',
  'ㅋㅍ',
  '여행',
  '#맛집',
  '브이로그',
  'ㅇㅎ',
  'latte',
  '요정',
  '강아지 산책',
  '100%',
  '없는검색어',
];

const WORDS = [
  '커피',
  '라떼',
  '여행',
  '맛집',
  '브이로그',
  '강아지',
  '고양이',
  '산책',
  '운동',
  '요리',
  '캠핑',
  '바다',
  '노을',
  '출근',
  '퇴근',
  '주말',
  '일상',
  '공부',
  '독서',
  '음악',
  '기타',
  '피아노',
  '댄스',
  '게임',
  '영화',
  '드라마',
  '쇼핑',
  '패션',
  '메이크업',
  '다이어트',
  '헬스',
  '러닝',
  '등산',
  '자전거',
  '베이킹',
  '디저트',
  '케이크',
  '빵집',
  '카페',
  '편의점',
  '리뷰',
  '언박싱',
  '꿀팁',
  '챌린지',
  '먹방',
  '소풍',
  '벚꽃',
  '단풍',
  '눈사람',
  '비오는날',
  'latte',
  'vlog',
  'cafe',
  'travel',
  'daily',
  'ootd',
  'diy',
  'asmr',
  '오굿',
  '포인트',
];
const NICKS = [
  '커피요정',
  '산책하는곰',
  '요리왕',
  '여행자',
  '고양이집사',
  '러너',
  '빵순이',
  '게이머',
  '음악가',
  '독서왕',
];
// Syllables for the long tail of generated words, repeated roughly by how often they start Korean syllables
// (ㅇ ㄱ ㅈ ㅅ ㄷ most, ㅋ ㅍ ㅌ rare), so initial-consonant queries match about as broadly as in real text.
const SYLLABLES = [
  ...'이이이이아아아어어오오우우으으의의요요유'.repeat(2),
  ...'기기가가고고구구그거개게'.repeat(2),
  ...'지지자자주주제제조정전'.repeat(2),
  ...'사사시시수수서서소상성세스'.repeat(2),
  ...'다다도도대대동드디두',
  ...'나나는는니노내네누',
  ...'리리라라로로레러루',
  ...'마마모무미명문',
  ...'바보부비반발',
  ...'하하해해한화회',
  ...'차처초치',
  ...'카코크키',
  ...'타토트티',
  ...'파포프피',
];
const COMMON_SHARE = 0.12;

function localOnly(url) {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost') throw new Error(`bench-search targets 127.0.0.1 only, not ${host}`);
}

const sqlArray = (items) => `array[${items.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;

export async function fixture(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const words = sqlArray(WORDS);
    const syllable = `(${sqlArray(SYLLABLES)})[1 + floor(random() * ${SYLLABLES.length})::int]`;
    // A common word with probability COMMON_SHARE, else a random two- or three-syllable word.
    const pick = `(case when random() < ${COMMON_SHARE} then (${words})[1 + floor(random() * ${WORDS.length})::int]
      else ${syllable} || ${syllable} || case when random() < 0.5 then ${syllable} else '' end end)`;
    await client.query('select setseed(0.42)');
    const { rows } = await client.query(
      `insert into customers (email, password_hash, name, birth, account, account_name, nickname)
       select 'bench-' || g || '@example.com', 'x', '벤치', '1990-01-01', '1000000000', '국민',
              case when g <= ${NICKS.length} then (${sqlArray(NICKS)})[g] else ${syllable} || ${syllable} || g end
         from generate_series(1, ${CREATORS}) g
       returning id`,
    );
    const first = Math.min(...rows.map((r) => r.id));
    await client.query(
      `insert into shorts (customer_id, title, content, video_key, thumbnail_key, duration_ms, status,
                           like_count, comment_count, created_at)
       select ${first} + (g % ${CREATORS}),
              ${pick} || ' ' || ${pick} || ' ' || ${pick},
              ${pick} || ' ' || ${pick} || ' ' || ${pick} || ' ' || ${pick} || ' #' || ${pick} || ' #' || ${pick},
              'bench/' || g || '.mp4', 'bench/' || g || '.jpg', 15000, 'READY',
              floor(random() * 500)::int, floor(random() * 50)::int,
              date_trunc('milliseconds', timestamptz '2026-11-01' - g * interval '37 seconds')
         from generate_series(1, ${SHORTS}) g`,
    );
    await client.query('analyze customers');
    await client.query('analyze shorts');
    // Filled by the trigger on shorts (migration 0051) as the rows above went in.
    await client.query('analyze short_hashtags');
  } finally {
    await client.end();
  }
}

/** The compiled server (built first when missing); an empty databaseUrl means its embedded PostgreSQL. */
async function startServer(port, databaseUrl, dataDir) {
  if (!existsSync(join(root, 'apps/server/dist/main.js'))) {
    const { spawnSync } = await import('node:child_process');
    spawnSync(process.execPath, [join(root, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  }
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: join(root, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      SEED_DEMO: 'false',
      // No public answer cache: the same words are asked again and again, and the figure is the database's.
      PUBLIC_CACHE_MS: '0',
      PUBLIC_FEED_CACHE_MS: '0',
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

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Sequential requests (first pages and cursor pages), so the p99 is the server's, not the queue's. */
async function sequential(base) {
  const latencies = [];
  const perQuery = new Map();
  const cursors = new Map();
  let hits = 0;
  for (let i = 0; i < SEQUENTIAL; i++) {
    const q = QUERIES[i % QUERIES.length];
    const cursor = i % 2 === 1 ? cursors.get(q) : undefined;
    const extra = cursor
      ? `&lastId=${cursor.lastId}&lastDate=${encodeURIComponent(cursor.lastDate)}&lastScore=${cursor.lastScore}`
      : '';
    const started = performance.now();
    const res = await fetch(`${base}/api/public/shorts/search?q=${encodeURIComponent(q)}&limit=8${extra}`);
    const body = await res.json();
    const took = performance.now() - started;
    latencies.push(took);
    perQuery.set(q, Math.max(perQuery.get(q) ?? 0, took));
    if (!res.ok) throw new Error(`search ${q} → ${res.status}`);
    // The body is the page itself (docs/rules/shorts.md#S2): items and nextCursor at the top.
    hits += body.items.length;
    if (body.nextCursor) cursors.set(q, body.nextCursor);
  }
  latencies.sort((a, b) => a - b);
  const round = (n) => Math.round(n * 10) / 10;
  return {
    requests: SEQUENTIAL,
    p50ms: round(percentile(latencies, 50)),
    p99ms: round(percentile(latencies, 99)),
    maxms: round(latencies.at(-1)),
    avgHits: round(hits / SEQUENTIAL),
    slowest: [...perQuery]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([q, ms]) => `${q} ${round(ms)} ms`),
  };
}

function load(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: 5, connections: 4 }, (error, r) =>
      error
        ? reject(error)
        : resolve({ reqPerSec: Math.round(r.requests.average), p99ms: r.latency.p99, non2xx: r.non2xx }),
    );
  });
}

/** A database for the fixture: a throw-away one on BENCH_DATABASE_URL's server, else none (embedded). */
async function externalDatabase() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) return null;
  localOnly(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `ohgood_bench_search_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function searchBench() {
  const external = await externalDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-bench-search-'));
  const port = await freePort();
  let server;
  try {
    // The server applies the migrations (indexes included) before the fixture is loaded.
    server = await startServer(port, external?.url ?? '', dataDir);
    const databaseUrl = external?.url ?? embeddedUrl(dataDir);
    const started = performance.now();
    await fixture(databaseUrl);
    const fixtureSeconds = Math.round((performance.now() - started) / 100) / 10;
    const base = `http://127.0.0.1:${port}`;
    const seq = await sequential(base);
    const under = await load(`${base}/api/public/shorts/search?q=${encodeURIComponent('커피')}&limit=8`);
    return {
      engine: external ? 'external PostgreSQL' : 'embedded PostgreSQL',
      shorts: SHORTS,
      fixtureSeconds,
      sequential: seq,
      underLoad4Connections: under,
      budgetP99ms: P99_BUDGET_MS,
      // The machine's 1-minute load average at the end: p99 on a shared machine says as much about it.
      loadAverage: Math.round(loadavg()[0] * 10) / 10,
      withinBudget: seq.p99ms <= P99_BUDGET_MS,
    };
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => (server ? server.once('exit', resolve) : resolve()));
    await external?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printSearchBench(result) {
  console.log(`\n== Search at ${SHORTS.toLocaleString('en')} shorts (${result.engine})`);
  console.log(`fixture: ${result.fixtureSeconds} s; queries: ${QUERIES.join(', ')} (first and cursor pages)`);
  const s = result.sequential;
  console.log(
    `search p99 ${s.p99ms} ms (p50 ${s.p50ms}, max ${s.maxms}; ${s.requests} sequential requests) — budget ≤ ${result.budgetP99ms} ms: ${result.withinBudget ? 'OK' : 'OVER'} (load average ${result.loadAverage})`,
  );
  console.log(`slowest single requests: ${s.slowest.join(', ')}`);
  const u = result.underLoad4Connections;
  console.log(`'커피' under load (4 connections, 5 s): ${u.reqPerSec} req/s, p99 ${u.p99ms} ms, non-2xx ${u.non2xx}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await searchBench();
  printSearchBench(result);
  process.exit(result.withinBudget === false ? 1 : 0);
}
