import type { Page } from '@playwright/test';

/**
 * A mid-range phone on a mobile network, as Chromium's DevTools emulates it: the CPU slowed down four times
 * (Lighthouse's mobile profile) and the "Fast 4G" preset (165 ms round trip, 9 Mbps down, 1.5 Mbps up, each
 * at DevTools' 90 %). Applied to one page over CDP before it navigates.
 */
export const THROTTLED_PROFILE = {
  cpuSlowdown: 4,
  latencyMs: 165,
  downloadBytesPerSecond: (9_000_000 / 8) * 0.9,
  uploadBytesPerSecond: (1_500_000 / 8) * 0.9,
} as const;

export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLED_PROFILE.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLED_PROFILE.latencyMs,
    downloadThroughput: THROTTLED_PROFILE.downloadBytesPerSecond,
    uploadThroughput: THROTTLED_PROFILE.uploadBytesPerSecond,
  });
}
