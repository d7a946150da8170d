import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { browser, chromiumPath, launchOptions } from './e2e/chromium';

if (!existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath} (CHROME_PATH).`);
// Once, in the runner's process (workers load this file too).
if (!process.env.TEST_WORKER_INDEX) console.log(`e2e browser: ${browser.source} Chromium at ${chromiumPath}`);

const port = Number(process.env.E2E_PORT ?? 4390);

/*
 * The server's clock starts on the 10th of the current Seoul month at noon: same month as the browser's,
 * and before the 15th due date and the 16th auto-extension, so the bill flows are the same on any day.
 */
const seoulMonth = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7);
const clockStart = `${seoulMonth}-10T12:00:00+09:00`;
// One data directory for the run, known to the workers too (they inherit the runner's environment): a spec's
// setup may write to the server's database through the server's own command-line tools.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'ohgood-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'e2e/.tmp/results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    // The production build registers a service worker (ADR 0041); only the PWA spec lets it run.
    serviceWorkers: 'block',
    launchOptions,
  },
  webServer: {
    command: 'node ../../scripts/start.mjs',
    url: `http://127.0.0.1:${port}/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      CLOCK_START: clockStart,
      // No balancer in front of the test server: it may stop at once.
      SHUTDOWN_DRAIN_SECONDS: '0',
      // Every spec signs up its own customers from 127.0.0.1: one office-sized allowance for the whole run.
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      SIGNUPS_PER_IP_PER_DAY: '1000',
      // The sandbox bank's "bank app": specs read the 1원 인증 code as the account holder would.
      SANDBOX_BANK_INBOX: 'true',
      // The merchant portal spec's webhook endpoint is a server inside the test on 127.0.0.1.
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
    },
  },
});
