// `node scripts/lighthouse-pages.mjs <base URL>[,<base URL>…] <path>…`: Lighthouse 12's mobile profile (4× CPU,
// slow 4G) on each page, in a full Chromium (CHROME_PATH, else Debian's /usr/bin/chromium), and where the
// main thread went: Lighthouse's own work breakdown (script, style and layout, parsing…), the scripts that
// cost the most (bootup time) and the longest tasks. Several bases (e.g. the build before a change and the one
// after it, served on two ports) are measured interleaved, run by run, so both see the same machine load;
// the load average is printed with each page. LH_RUNS runs per page (default 3), the median by score shown.
// Pages behind sign-in (LH_SIGNED_IN, default /payment,/dashboard,/mypage,/qrpin) are measured as the demo
// customer: a tab of the same browser holds the session, which the measured tab receives over the app's
// BroadcastChannel as a second tab of a signed-in phone would (ADR 0040).
import { loadavg } from 'node:os';
import { holdDemoSession, lighthouseChromium, lighthouseRun, startLighthouseBrowser } from './lighthouse-browser.mjs';

const [baseList, ...paths] = process.argv.slice(2);
if (!baseList || paths.length === 0)
  throw new Error('usage: node scripts/lighthouse-pages.mjs <base>[,<base>] <path>…');
const bases = baseList.split(',');
const runs = Number(process.env.LH_RUNS ?? 3);
const signedIn = new Set((process.env.LH_SIGNED_IN ?? '/payment,/dashboard,/mypage,/qrpin').split(','));
// A full Chromium only: this probe compares builds on the browser a customer holds.
const used = lighthouseChromium(process.cwd(), { allowShell: false });

/** The top items of where the main thread went in one report, as short text. */
function mainThread(lhr) {
  const ms = (n) => `${Math.round(n)} ms`;
  const groups = (lhr.audits['mainthread-work-breakdown']?.details?.items ?? [])
    .slice(0, 4)
    .map((item) => `${item.groupLabel ?? item.group} ${ms(item.duration)}`);
  const scripts = (lhr.audits['bootup-time']?.details?.items ?? [])
    .slice(0, 4)
    .map(
      (item) => `${String(item.url).replace(/^https?:\/\/[^/]+/, '')} ${ms(item.total)} (eval ${ms(item.scripting)})`,
    );
  const tasks = (lhr.audits['long-tasks']?.details?.items ?? [])
    .slice(0, 3)
    .map(
      (item) =>
        `${String(item.url).replace(/^https?:\/\/[^/]+/, '') || '?'} ${ms(item.duration)} at ${ms(item.startTime)}`,
    );
  return `main thread: ${groups.join(', ')}\n    scripts: ${scripts.join(', ')}\n    long tasks: ${tasks.join(', ') || 'none'}`;
}

/** What moved in a report's layout shifts, largest first, as short text (empty when nothing moved). */
function shifted(lhr) {
  const items = lhr.audits['layout-shifts']?.details?.items ?? [];
  return items
    .slice(0, 3)
    .map((item) => `${item.node?.selector ?? '?'} ${item.score?.toFixed(3) ?? '?'}`)
    .join(', ');
}

const { browser, port, close } = await startLighthouseBrowser(used);

try {
  // Anonymous pages first (a holder tab's session is shared by every new tab of its origin).
  const ordered = [...paths].sort((a, b) => Number(signedIn.has(a)) - Number(signedIn.has(b)));
  let holding = false;
  for (const path of ordered) {
    if (signedIn.has(path) && !holding) {
      for (const base of bases) await holdDemoSession(browser, base);
      holding = true;
    }
    const reports = new Map(bases.map((base) => [base, []]));
    const loads = [];
    for (let i = 0; i < runs; i++) {
      for (const base of bases) {
        loads.push(loadavg()[0].toFixed(1));
        const lhr = await lighthouseRun(`${base}${path}`, port, signedIn.has(path));
        if (lhr) reports.get(base).push(lhr);
      }
    }
    console.log(`${path} (load average ${loads.join('/')})`);
    for (const [base, lhrs] of reports) {
      if (lhrs.length === 0) {
        console.log(`  ${base}: lighthouse failed`);
        continue;
      }
      const score = (lhr) => Math.round(lhr.categories.performance.score * 100);
      const median = [...lhrs].sort((a, b) => score(a) - score(b))[Math.floor((lhrs.length - 1) / 2)];
      const shown = (id) => median.audits[id]?.displayValue ?? '?';
      const tbts = lhrs.map((lhr) => Math.round(lhr.audits['total-blocking-time'].numericValue)).join('/');
      const shifts = lhrs.map((lhr) => lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)).join('/');
      const index = lhrs.map((lhr) => Math.round(lhr.environment?.benchmarkIndex ?? 0)).join('/');
      const moved = lhrs.map(shifted).find((text) => text !== '');
      console.log(
        `  ${base}: performance ${score(median)} (runs ${lhrs.map(score).join('/')}), a11y ${Math.round(median.categories.accessibility.score * 100)}, TBT ${shown('total-blocking-time')} (runs ${tbts}), FCP ${shown('first-contentful-paint')}, LCP ${shown('largest-contentful-paint')}, CLS ${shown('cumulative-layout-shift')} (runs ${shifts}); benchmark index ${index}\n    ${mainThread(median)}${moved ? `\n    shifted: ${moved}` : ''}`,
      );
    }
  }
} finally {
  await close();
}
