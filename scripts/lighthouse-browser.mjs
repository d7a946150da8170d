// The one way the bench (bench-lighthouse.mjs) and the page probe (lighthouse-pages.mjs) drive Lighthouse: which
// Chromium, how it is started with a debugging port, one Lighthouse 12 mobile run against it, and the tab that
// holds the demo customer's session for the signed-in pages.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

/** Debian's full Chromium (`apt-get install chromium`): the browser a customer's phone runs, not a shell. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const DEMO = { emailId: 'demo@ohgood.kr', pwd: 'ohgood123!' };

/**
 * The Chromium Lighthouse drives and how to name it: CHROME_PATH, else Debian's full Chromium, else (when
 * `allowShell`) the headless shell the e2e suite unpacked from npm, with its font configuration so Hangul is
 * laid out with real fonts. The shell skips work a full browser does on the main thread: its scores run higher
 * and are not comparable with the full browser's, and `note` says so.
 */
export function lighthouseChromium(root, { allowShell = true } = {}) {
  if (process.env.CHROME_PATH) return { chrome: process.env.CHROME_PATH, env: process.env, kind: 'CHROME_PATH' };
  if (existsSync(SYSTEM_CHROMIUM)) return { chrome: SYSTEM_CHROMIUM, env: process.env, kind: 'full Chromium' };
  const cache = join(root, 'node_modules/.cache/ohgood-e2e');
  const unpacked =
    allowShell && existsSync(cache) ? readdirSync(cache).find((name) => name.startsWith('sparticuz-chromium-')) : null;
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
export function versionOf({ chrome, env }) {
  const run = spawnSync(chrome, ['--version', '--no-sandbox'], { env, encoding: 'utf8', timeout: 30_000 });
  return run.stdout?.trim().split('\n').at(-1) || 'version unknown';
}

/**
 * Starts `used` (from lighthouseChromium) headless with a debugging port and connects Playwright to it.
 * Returns `{ browser, port, close }`; a Ctrl-C stops the browser too (it is not a child the shell would stop).
 */
export async function startLighthouseBrowser(used) {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'ohgood-lh-profile-'));
  const browserProcess = spawn(
    used.chrome,
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
    { stdio: 'ignore', env: used.env },
  );
  const onSignal = () => {
    browserProcess.kill('SIGTERM');
    process.exit(1);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, onSignal);
  const { chromium } = await import('@playwright/test');
  let browser;
  for (let i = 0; i < 100 && !browser; i++) {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => undefined);
    if (!browser) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const close = async () => {
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, onSignal);
    await browser?.close().catch(() => undefined);
    browserProcess.kill('SIGTERM');
  };
  if (!browser) {
    await close();
    throw new Error('Chromium for Lighthouse did not start');
  }
  return { browser, port, close };
}

/**
 * One Lighthouse 12 mobile run (4× CPU, slow 4G) of `url` in the browser on `port`; its report, or null when
 * Lighthouse failed. `keepStorage` keeps the signed-in tab's session (Lighthouse would clear the origin's
 * storage first). Not spawnSync: Playwright must keep serving the browser connection, or the tab Lighthouse
 * opens stays paused waiting for it.
 */
export function lighthouseRun(url, port, keepStorage) {
  const out = join(mkdtempSync(join(tmpdir(), 'ohgood-lh-')), 'report.json');
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        '-y',
        'lighthouse@12',
        url,
        `--port=${port}`,
        '--only-categories=performance,accessibility',
        '--form-factor=mobile',
        ...(keepStorage ? ['--disable-storage-reset'] : []),
        '--output=json',
        `--output-path=${out}`,
        '--quiet',
      ],
      { stdio: 'ignore' },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? JSON.parse(readFileSync(out, 'utf8')) : null);
    });
  });
}

/** The demo customer's access token from the server at `base` (the bench's pages measured signed in). */
export async function demoAccessToken(base) {
  const res = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  if (!res.ok) throw new Error(`demo sign-in on ${base} answered ${res.status}`);
  return (await res.json()).accessToken;
}

/**
 * Opens a tab of `browser` on `base` holding the demo customer's session, parked on the app's lightest page (not
 * found): the tab Lighthouse opens gets the session over the app's BroadcastChannel, as a second tab of a
 * signed-in phone would (ADR 0040), and a busy page here (Home's ticker) would share the measured tab's renderer
 * process and count as its main-thread work. Once it holds a session every new tab of that origin shares it, so
 * anonymous pages are measured first.
 */
export async function holdDemoSession(browser, base) {
  const accessToken = await demoAccessToken(base);
  const holder = await browser.contexts()[0].newPage();
  await holder.goto(`${base}/`);
  await holder.evaluate((token) => sessionStorage.setItem('accessToken', token), accessToken);
  await holder.goto(`${base}/lighthouse-session-holder`);
}
