// The Lighthouse rows of `npm run bench` (BENCH_LIGHTHOUSE=1): Lighthouse 12's mobile profile, each page the
// median of three runs, in a full Chromium when the machine has one (ADR 0243). Every run's score is shown
// with the machine's benchmark index during that run (Lighthouse's own CPU benchmark): a busy machine shows
// there, and a figure is only comparable with another taken at a similar index.
import {
  holdDemoSession,
  lighthouseChromium,
  lighthouseRun,
  startLighthouseBrowser,
  versionOf,
} from './lighthouse-browser.mjs';

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
 * Lighthouse in one headless Chromium started with a debugging port; the signed-in pages are measured with a
 * tab of that browser holding the demo customer's session (lighthouse-browser.mjs). `row(figure, measured,
 * target, ok)` adds a line to the bench's table.
 */
export async function lighthouse({ base, root, row }) {
  const browserUsed = lighthouseChromium(root);
  const version = versionOf(browserUsed);
  row(
    'Lighthouse browser',
    `${version} (${browserUsed.kind}, ${browserUsed.chrome})${browserUsed.note ? `: ${browserUsed.note}` : ''}`,
    'a full Chromium',
    browserUsed.kind === 'npm headless shell' ? false : null,
  );
  const { browser, port, close } = await startLighthouseBrowser(browserUsed);
  try {
    let holding = false;
    const note = browserUsed.note ? `; ${browserUsed.note}` : '';
    const pages = [...PAGES].sort((a, b) => Number(a.loggedIn) - Number(b.loggedIn));
    for (const { path, loggedIn } of pages) {
      if (loggedIn && !holding) {
        await holdDemoSession(browser, base);
        holding = true;
      }
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
    await close();
  }
}
