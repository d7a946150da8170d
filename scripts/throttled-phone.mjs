// A mid-range phone on a mobile network, as Chromium's DevTools emulates it over CDP: shared by the e2e
// measurements (first screens, the swipe guard) and `npm run bench` (the swipe row), so all judge one profile.

/** Chrome DevTools' "Fast 4G": 9 Mbit/s down, 1.5 Mbit/s up, 165 ms round trip (its 0.9 and 2.75 factors). */
export const FAST_4G = {
  offline: false,
  latency: 60 * 2.75,
  downloadThroughput: ((9_000_000 / 8) * 0.9) | 0,
  uploadThroughput: ((1_500_000 / 8) * 0.9) | 0,
};
/** Lighthouse's mobile profile slows the CPU four times. */
export const CPU_SLOWDOWN = 4;

/** Throttles the page's network and CPU through the DevTools protocol (Chromium only). */
export async function throttle(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return cdp;
}
