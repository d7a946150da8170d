// `node scripts/web-trace.mjs <base URL> <path>…`: loads each page of a running app in Chromium with the CPU
// slowed down four times (as Lighthouse's mobile profile does) and prints what the main thread did: first
// and largest paint, the long tasks and their blocking time (TBT: each task's time over 50 ms, from first
// paint to 5 s after load), and the layout and style work after the first paint in units the machine's load
// does not change (layouts, objects laid out, elements styled). A Chromium trace of each load is written
// beside it for DevTools' Performance panel (TRACE_DIR, default a temp directory). Used for
// docs/performance.md; CHROME_PATH picks the browser.
// TRACE_LOGIN=email:password loads the pages signed in as that customer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { layoutWorkAfterFirstPaint, traceLoginToken } from './trace-work.mjs';

const [base, ...paths] = process.argv.slice(2);
if (!base || paths.length === 0) throw new Error('usage: node scripts/web-trace.mjs <base URL> <path>…');
const traceDir = process.env.TRACE_DIR ?? mkdtempSync(join(tmpdir(), 'ohgood-trace-'));
const runs = Number(process.env.TRACE_RUNS ?? 3);

const token = await traceLoginToken(base);

/** In the page, before any script: keeps every paint and long task the browser reports. */
function observe() {
  const w = window;
  w.__trace = { longTasks: [], fcp: 0, lcp: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__trace.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__trace.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__trace.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  for (const path of paths) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
      const page = await context.newPage();
      await page.addInitScript(observe);
      if (token) await page.addInitScript((t) => sessionStorage.setItem('accessToken', t), token);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const tracePath = join(traceDir, `${path.replace(/[^a-z0-9]+/gi, '_') || 'root'}-${run}.json`);
      await browser.startTracing(page, { path: tracePath, screenshots: false });
      await page.goto(`${base}${path}`, { waitUntil: 'load' });
      await page.waitForTimeout(5000);
      await browser.stopTracing();
      const t = await page.evaluate(() => window.__trace);
      const afterFcp = t.longTasks.filter((task) => task.start + task.duration > t.fcp);
      const tbt = afterFcp.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
      const longest = Math.max(0, ...t.longTasks.map((task) => task.duration));
      results.push({
        fcp: t.fcp,
        lcp: t.lcp,
        tbt,
        tasks: t.longTasks.length,
        longest,
        tracePath,
        work: layoutWorkAfterFirstPaint(tracePath),
      });
      await context.close();
    }
    const median = (key) => results.map((r) => r[key]).sort((a, b) => a - b)[Math.floor((results.length - 1) / 2)];
    const ms = (n) => `${Math.round(n)} ms`;
    const work = results
      .map((r) =>
        r.work ? `${r.work.layouts} (${r.work.dirtyObjects} objects), ${r.work.elementsRestyled} styled` : '?',
      )
      .join(' / ');
    console.log(
      `${path}: FCP ${ms(median('fcp'))}, LCP ${ms(median('lcp'))}, TBT ${ms(median('tbt'))} (runs ${results.map((r) => Math.round(r.tbt)).join('/')}), long tasks ${median('tasks')}, longest ${ms(median('longest'))}; layouts after the first paint ${work}; traces ${results.map((r) => r.tracePath).join(' ')}`,
    );
  }
} finally {
  await browser.close();
}
