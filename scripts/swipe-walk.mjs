// Swiping through the shorts feed as a customer on a phone, measured in the page: shared by the swipe e2e
// (apps/web/e2e/shorts-swipe.spec.ts, the loose guard) and `npm run bench` (scripts/bench-swipe.mjs, the
// target). The page records the figures itself (apps/web/src/features/shorts/swipe-timing.ts): the time from
// each swipe to the next short's first rendered frame, and a mark for every stall.

import { readFileSync } from 'node:fs';

/**
 * ffmpeg's arguments for the `i`-th of `count` distinct shorts: 4 s portrait 540×960 at 24 fps with sound, as a
 * phone uploads it, its colours turned so that every file differs. Input and output only: global flags are the
 * caller's.
 */
export function swipeClipArgs(i, count, file) {
  return [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=540x960:rate=24:duration=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=4'],
    ...['-vf', `hue=h=${Math.round((i * 360) / count)}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4', file],
  ];
}

/**
 * Uploads the clip files as the customer of `token` (`POST /api/upload`) and resolves with their ids once the
 * server has transcoded every one (at most `timeoutMs`).
 */
export async function uploadShorts(base, token, files, timeoutMs = 240_000) {
  const headers = { authorization: `Bearer ${token}` };
  const ids = [];
  for (const [i, file] of files.entries()) {
    const form = new FormData();
    form.append('title', `넘겨보기 ${i + 1}`);
    form.append('content', '다음 쇼츠가 바로 나오는지 #측정');
    form.append('video', new Blob([readFileSync(file)], { type: 'video/mp4' }), `short-${i}.mp4`);
    // A server that answers before it has read the body (a refusal) resets the upload; the answer then comes
    // to a second try, which has its body ready from the start.
    const post = () => fetch(`${base}/api/upload`, { method: 'POST', headers, body: form });
    const res = await post().catch((error) => {
      console.warn(`upload ${i + 1} was cut off (${error.cause?.code ?? error}); sending it again`);
      return post();
    });
    if (!res.ok) throw new Error(`upload refused: ${res.status} ${await res.text()}`);
    ids.push((await res.json()).data.shortsId);
  }
  const until = Date.now() + timeoutMs;
  for (const id of ids) {
    for (;;) {
      const status = (await (await fetch(`${base}/api/shorts/${id}/status`, { headers })).json()).data.status;
      if (status === 'READY') break;
      if (status === 'FAILED' || Date.now() > until) throw new Error(`short ${id} is ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return ids;
}

/** Distinct shorts on the first `pages` pages of the feed as the customer of `token` sees it. */
export async function feedShortIds(base, token, pages = 3) {
  const ids = new Set();
  for (let page = 1; page <= pages; page++) {
    const res = await fetch(`${base}/api/public/shorts/feeds?page=${page}&size=10`, {
      headers: { authorization: `Bearer ${token}` },
    });
    for (const item of (await res.json()).data) ids.add(item.shortsId);
  }
  return ids;
}

const ACTIVE = '[data-testid=active-video]';

/** Resolves once the visible short has played `seconds` of its video: the viewer watches before swiping. */
function watched(page, seconds, timeout) {
  return page.waitForFunction(
    ([selector, s]) => (document.querySelector(selector)?.currentTime ?? 0) >= s,
    [ACTIVE, seconds],
    { timeout },
  );
}

/** A finger's upward swipe on the feed, as the touch events its handler reads. */
function swipeUp(page) {
  return page.evaluate(() => {
    const feed = document.querySelector('[aria-label="쇼츠 피드"]');
    if (!feed) throw new Error('no feed');
    const touch = (y) => new Touch({ identifier: 1, target: feed, clientX: 200, clientY: y });
    feed.dispatchEvent(
      new TouchEvent('touchstart', { bubbles: true, touches: [touch(600)], changedTouches: [touch(600)] }),
    );
    feed.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(300)] }));
  });
}

const measures = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByName('shorts:swipe-to-frame')
      .map((e) => ({ ms: e.duration, shortsId: e.detail?.shortsId })),
  );

/**
 * On an open feed page: watches the first short for `watchSeconds`, then `swipes` times swipes up, waits for
 * the next short's first frame (at most `frameTimeoutMs`; a short that shows none by then is stalled) and
 * watches it too. Returns each swipe's time to the first frame (null when stalled), the shorts seen and the
 * stalls (a playing short waiting for data).
 */
export async function swipeWalk(page, { swipes = 20, watchSeconds = 1, frameTimeoutMs = 5000 } = {}) {
  await watched(page, watchSeconds, 60_000);
  const times = [];
  for (let i = 0; i < swipes; i++) {
    const before = (await measures(page)).length;
    await swipeUp(page);
    const framed = await page
      .waitForFunction((n) => performance.getEntriesByName('shorts:swipe-to-frame').length > n, before, {
        timeout: frameTimeoutMs,
      })
      .then(() => true)
      .catch(() => false);
    const all = await measures(page);
    times.push(framed ? all[all.length - 1] : { ms: null, shortsId: null });
    if (framed) await watched(page, watchSeconds, 30_000);
  }
  const stalls = await page.evaluate(() => performance.getEntriesByName('shorts:stall').length);
  return { times, stalls };
}

/** p50, p95 and max of the measured times (ms, rounded), and how many swipes stalled. */
export function swipeSummary({ times, stalls }) {
  const ms = times
    .map((t) => t.ms)
    .filter((v) => v !== null)
    .sort((a, b) => a - b);
  const at = (q) => (ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]) : null);
  return {
    count: times.length,
    p50: at(0.5),
    p95: at(0.95),
    max: at(1),
    stalled: times.length - ms.length + stalls,
  };
}
