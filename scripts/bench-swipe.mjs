// The bench's swipe row: a customer on a Fast 4G phone (CPU slowed four times) swipes through 20 shorts
// of the feed; the page measures each swipe to the next short's first rendered frame (scripts/swipe-walk.mjs).
// It runs on a server of its own, a fresh data directory with the demo feed and twelve uploads of distinct
// clips: the 100,000-shorts fixture shares one video file between its shorts, which the browser would
// serve from its cache after the first.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';
import { feedShortIds, swipeClipArgs, swipeSummary, swipeWalk, uploadShorts } from './swipe-walk.mjs';
import { throttle } from './throttled-phone.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SWIPES = 20;
const UPLOADS = 12;
export const SWIPE_TARGET = 'p95 ≤ 200 ms, none stalled';

/** The system's ffmpeg when on PATH, else the npm package's (as the server and the e2e specs pick theirs). */
function ffmpegPath() {
  if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0) return 'ffmpeg';
  return createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;
}

async function startApp(port, dataDir) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error('the swipe bench server stopped');
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the swipe bench server did not start');
}

async function customerToken(base) {
  const emailId = `swipe${Date.now()}@bench.ohgood.kr`;
  const pwd = 'password1!';
  const body = { name: '김오굿', emailId, pwd, birth: '1990-01-01', account: '1002345678901', accountName: '토스' };
  const post = (path, data) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });
  if (!(await post('/api/public/register', body)).ok) throw new Error('bench customer refused');
  const login = await (await post('/auth', { emailId, pwd })).json();
  return login.accessToken ?? login.data?.accessToken;
}

/** Runs the walk in the Chromium `{ chrome, env }`; resolves with the summary (p50/p95/max ms, stalled). */
export async function swipeBench({ chrome, env }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-swipe-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startApp(port, dataDir);
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chrome, env, args: ['--no-sandbox'] });
  try {
    const token = await customerToken(base);
    const ffmpeg = ffmpegPath();
    const files = Array.from({ length: UPLOADS }, (_, i) => {
      const file = join(dataDir, `swipe-${i}.mp4`);
      execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...swipeClipArgs(i, UPLOADS, file)]);
      return file;
    });
    await uploadShorts(base, token, files);
    for (let i = 0; (await feedShortIds(base, token)).size <= SWIPES; i++) {
      if (i > 90) throw new Error('the uploads did not reach the feed');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('accessToken', t), token);
    await throttle(page);
    await page.goto(`${base}/shorts/feeds`);
    return swipeSummary(await swipeWalk(page, { swipes: SWIPES, frameTimeoutMs: 5000 }));
  } finally {
    await browser.close();
    await new Promise((resolve) => {
      server.once('exit', resolve);
      server.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The row's measured text and whether it meets the target. */
export function swipeRow(summary) {
  return {
    measured: `p50 ${summary.p50} ms, p95 ${summary.p95} ms, max ${summary.max} ms over ${summary.count} swipes, ${summary.stalled} stalled (Fast 4G, CPU ×4)`,
    ok: summary.p95 !== null && summary.p95 <= 200 && summary.stalled === 0,
  };
}
