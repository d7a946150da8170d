// `node scripts/web-renders.mjs <base URL>[,<base URL>] <path>…`: counts the work of a page's first load in
// units the machine's load does not change, so two builds can be compared on a busy machine: React's commits
// and the components each rendered (a stub of React's devtools hook, before any script), the Intl formatters
// made, the layouts after the first paint and the layout objects they dirtied, the elements restyled, and the
// script bytes each chunk brought. With two bases (two builds on two ports) the loads alternate between them,
// run by run. CPU slowed four times, as Lighthouse's mobile profile does; RUNS (default 3) loads per page and
// base; CHROME_PATH picks the browser; SHOW_COMPONENTS=1 lists the components rendered more than once;
// TRACE_LOGIN=email:password loads the pages signed in as that customer (on each base's own server).
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { layoutWorkAfterFirstPaint, traceLoginToken } from './trace-work.mjs';

const [bases, ...paths] = process.argv.slice(2);
if (!bases || paths.length === 0) throw new Error('usage: node scripts/web-renders.mjs <base>[,<base>] <path>…');
const runs = Number(process.env.RUNS ?? 3);

/** In the page, before React: a devtools hook that counts commits and the components each one rendered. */
function countRenders() {
  const w = window;
  const stats = { commits: [], rendered: {}, intl: 0 };
  w.__renders = stats;
  // Each Intl formatter made: the first one sets ICU up, a long task of its own on a throttled phone.
  for (const kind of ['NumberFormat', 'DateTimeFormat', 'RelativeTimeFormat', 'PluralRules']) {
    const Made = Intl[kind];
    Intl[kind] = new Proxy(Made, {
      construct(target, args) {
        stats.intl += 1;
        return Reflect.construct(target, args);
      },
    });
  }
  // React's fiber tags of components that run user code (function, class, forwardRef, memo, simple memo).
  const components = new Set([0, 1, 11, 14, 15]);
  const PERFORMED_WORK = 1;
  const name = (f) => {
    const t = f.type;
    if (!t) return '?';
    return t.displayName || t.name || t.render?.displayName || t.render?.name || t.type?.name || '?';
  };
  /** The components this commit rendered: a subtree whose children are the previous commit's was not. */
  const walk = (fiber, out) => {
    for (let f = fiber; f; f = f.sibling) {
      const prev = f.alternate;
      const mounted = prev === null;
      if (components.has(f.tag) && (mounted || (f.flags & PERFORMED_WORK) !== 0)) out.push(name(f));
      if (f.child && (mounted || f.child !== prev.child)) walk(f.child, out);
    }
  };
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject() {
      return 1;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const out = [];
      walk(root.current, out);
      stats.commits.push({ at: Math.round(performance.now()), components: out.length, first: out.slice(0, 6) });
      for (const n of out) stats.rendered[n] = (stats.rendered[n] ?? 0) + 1;
    },
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

async function load(base, path) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  const page = await context.newPage();
  await page.addInitScript(countRenders);
  const token = await traceLoginToken(base);
  if (token) await page.addInitScript((t) => sessionStorage.setItem('accessToken', t), token);
  const scripts = {};
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    scripts[new URL(res.url()).pathname.split('/').pop()] = body.length;
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const tracePath = join(tmpdir(), `web-renders-${process.pid}.json`);
  await browser.startTracing(page, { path: tracePath, screenshots: false });
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  // Idle-time work (the feed's neighbours, the brand font's warm-up) is part of the first load's work.
  await page.waitForTimeout(5000);
  await browser.stopTracing();
  const renders = await page.evaluate(() => window.__renders);
  await context.close();
  const counts = layoutWorkAfterFirstPaint(tracePath) ?? {
    layouts: '?',
    dirtyObjects: '?',
    styleUpdates: '?',
    elementsRestyled: '?',
  };
  rmSync(tracePath, { force: true });
  return { renders, counts, scripts };
}

for (const path of paths) {
  for (let run = 0; run < runs; run++) {
    for (const base of bases.split(',')) {
      const { renders, counts, scripts } = await load(base, path);
      const rendered = Object.values(renders.rendered).reduce((a, b) => a + b, 0);
      const bytes = Object.values(scripts).reduce((a, b) => a + b, 0);
      console.log(
        `${base} ${path} run ${run + 1}: commits ${renders.commits.length} (components ${renders.commits.map((c) => c.components).join('/')}), components rendered ${rendered}, Intl formatters ${renders.intl}; layouts ${counts.layouts} (${counts.dirtyObjects} objects), style updates ${counts.styleUpdates} (${counts.elementsRestyled} elements); script ${bytes} B in ${Object.keys(scripts).length} files`,
      );
      if (process.env.SHOW_COMPONENTS) {
        const twice = Object.entries(renders.rendered).filter(([, n]) => n > 1);
        console.log(`   rendered more than once: ${twice.map(([n, c]) => `${n}×${c}`).join(', ')}`);
        for (const c of renders.commits)
          console.log(`   commit at ${c.at} ms: ${c.components} (${c.first.join(' > ')})`);
        console.log(
          `   scripts: ${Object.entries(scripts)
            .map(([n, b]) => `${n} ${b}`)
            .join(', ')}`,
        );
      }
    }
  }
}
await browser.close();
