// The Lighthouse rows of `npm run bench` (BENCH_LIGHTHOUSE=1): Lighthouse 12's mobile profile, each page the
// median of three runs, in a full Chromium when the machine has one (ADR 0243). Every run's score is shown
// with the machine's benchmark index during that run (Lighthouse's own CPU benchmark): a busy machine shows
// there, and a figure is only comparable with another taken at a similar index.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

const ALL_PAGES = [
  { path: '/', loggedIn: false },
  { path: '/login', loggedIn: false },
  { path: '/shorts/feeds', loggedIn: false },
  { path: '/payment', loggedIn: true },
  { path: '/dashboard', loggedIn: true },
  { path: '/mypage', loggedIn: true },
  { path: '/qrpin', loggedIn: true },
];
// BENCH_LIGHTHOUSE_PAGES=/payment,/dashboard measures only those (while working on them).
const PAGES = process.env.BENCH_LIGHTHOUSE_PAGES
  ? ALL_PAGES.filter(({ path }) => process.env.BENCH_LIGHTHOUSE_PAGES.split(',').includes(path))
  : ALL_PAGES;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const TARGET = '≥ 95, TBT ≤ 150 ms, a11y 100 (median of 3)';
/** Debian's full Chromium (`apt-get install chromium`): the browser a customer's phone runs, not a shell. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const DEMO = { emailId: 'demo@ohgood.kr', pwd: 'ohgood123!' };

/**
 * The Chromium Lighthouse drives and how to name it: CHROME_PATH, else Debian's full Chromium, else the
 * headless shell the e2e suite unpacked from npm (with its font configuration, so Hangul is laid out with real
 * fonts). The shell skips work a full browser does on the main thread: its scores run higher and are not
 * comparable with the full browser's, and every row says so.
 */
function chromium(root) {
  if (process.env.CHROME_PATH) return { chrome: process.env.CHROME_PATH, env: process.env, kind: 'CHROME_PATH' };
  if (existsSync(SYSTEM_CHROMIUM)) return { chrome: SYSTEM_CHROMIUM, env: process.env, kind: 'full Chromium' };
  const cache = join(root, 'node_modules/.cache/ohgood-e2e');
  const unpacked = existsSync(cache) ? readdirSync(cache).find((name) => name.startsWith('sparticuz-chromium-')) : null;
  if (!unpacked)
    throw new Error('no Chromium for Lighthouse: install chromium, set CHROME_PATH, or run the e2e suite once');
  const dir = join(cache, unpacked);
  return {
    chrome: join(dir, 'chromium'),
    env: { ...process.env, FONTCONFIG_FILE: join(cache, 'fontconfig/fonts.conf'), LD_LIBRARY_PATH: dir },
    kind: 'npm headless shell',
    note: 'npm headless shell: not comparable with a full Chromium',
  };
}

/** The browser's own version line ("Chromium 150.0.… built on Debian …"), or "version unknown". */
function versionOf({ chrome, env }) {
  const run = spawnSync(chrome, ['--version', '--no-sandbox'], { env, encoding: 'utf8', timeout: 30_000 });
  return run.stdout?.trim().split('\n').at(-1) || 'version unknown';
}

/** One Lighthouse run against the browser on `port`; its report, or null when Lighthouse failed. */
async function lighthouseRun(url, port, loggedIn) {
  const out = join(mkdtempSync(join(tmpdir(), 'ohgood-lh-')), 'report.json');
  // Not spawnSync: Playwright must keep serving the browser connection, or the tab Lighthouse opens stays
  // paused waiting for it.
  const status = await new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        '-y',
        'lighthouse@12',
        url,
        `--port=${port}`,
        '--only-categories=performance,accessibility',
        '--form-factor=mobile',
        // Keeps the logged-in tab's session (Lighthouse would clear the origin's storage first).
        ...(loggedIn ? ['--disable-storage-reset'] : []),
        '--output=json',
        `--output-path=${out}`,
        '--quiet',
      ],
      { stdio: 'ignore' },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return status === 0 ? JSON.parse(readFileSync(out, 'utf8')) : null;
}

const score = (lhr, category) => Math.round(lhr.categories[category].score * 100);
const index = (lhr) => Math.round(lhr.environment?.benchmarkIndex ?? 0).toLocaleString('en-US');

/** A page's row from its runs: the median run by performance score, its own figures, and every run's index. */
function pageRow(runs) {
  const median = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'))[
    Math.floor((runs.length - 1) / 2)
  ];
  const perf = score(median, 'performance');
  const a11y = score(median, 'accessibility');
  const tbt = median.audits['total-blocking-time']?.numericValue ?? Number.POSITIVE_INFINITY;
  const audit = (id) => median.audits[id]?.displayValue ?? '?';
  // The feed's LCP element must be the first poster (a <video poster> reports as the video element).
  const lcpNode = median.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
  const lcpWhat = lcpNode ? ` (${(lcpNode.nodeLabel ?? lcpNode.selector ?? '').slice(0, 56)})` : '';
  const perRun = runs.map((lhr) => `${score(lhr, 'performance')} at index ${index(lhr)}`).join(', ');
  return {
    measured: `performance ${perf} (runs ${perRun}), accessibility ${a11y}; FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}${lcpWhat}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}`,
    ok: perf >= 95 && a11y === 100 && tbt <= 150,
  };
}

/**
 * Lighthouse in one headless Chromium that this starts with a debugging port. For the signed-in pages a tab
 * of that browser signs in as the demo customer and stays open: the token lives in that tab's session
 * storage, and the tab Lighthouse opens gets it over the app's BroadcastChannel, as a second tab of a
 * signed-in phone would (ADR 0040). `row(figure, measured, target, ok)` adds a line to the bench's table.
 */
export async function lighthouse({ base, root, row }) {
  const browserUsed = chromium(root);
  const version = versionOf(browserUsed);
  row(
    'Lighthouse browser',
    `${version} (${browserUsed.kind}, ${browserUsed.chrome})${browserUsed.note ? `: ${browserUsed.note}` : ''}`,
    'a full Chromium',
    browserUsed.kind === 'npm headless shell' ? false : null,
  );
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'ohgood-lh-profile-'));
  const browserProcess = spawn(
    browserUsed.chrome,
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
      'about:blank',
    ],
    { stdio: 'ignore', env: browserUsed.env },
  );
  const { chromium: playwright } = await import('@playwright/test');
  let browser;
  for (let i = 0; i < 100 && !browser; i++) {
    browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => undefined);
    if (!browser) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!browser) throw new Error('Chromium for Lighthouse did not start');
  try {
    // Anonymous pages first: once the holder tab has a session, every new tab of this browser shares it.
    let holder;
    const signIn = async () => {
      const res = await fetch(`${base}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO),
      });
      const { accessToken } = await res.json();
      holder = await browser.contexts()[0].newPage();
      await holder.goto(`${base}/`);
      await holder.evaluate((token) => sessionStorage.setItem('accessToken', token), accessToken);
      // Parked on the app's lightest page (not found): it shares the measured tab's renderer process, so a
      // busy page here (Home's ticker) would count as the measured page's main-thread work.
      await holder.goto(`${base}/bench-session-holder`);
    };
    const note = browserUsed.note ? `; ${browserUsed.note}` : '';
    const pages = [...PAGES].sort((a, b) => Number(a.loggedIn) - Number(b.loggedIn));
    for (const { path, loggedIn } of pages) {
      if (loggedIn && !holder) await signIn();
      const name = `Lighthouse mobile ${path}${loggedIn ? ' (signed in)' : ''}`;
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const lhr = await lighthouseRun(`${base}${path}`, port, loggedIn);
        if (lhr) runs.push(lhr);
      }
      if (runs.length === 0) {
        row(name, `lighthouse failed${note}`, TARGET, false);
        continue;
      }
      const { measured, ok } = pageRow(runs);
      row(name, `${measured}${note}`, TARGET, ok);
    }
  } finally {
    await browser.close().catch(() => undefined);
    browserProcess.kill('SIGTERM');
  }
}
