/** Types for throttled-phone.mjs (used by the e2e measurements). */
import type { CDPSession, Page } from '@playwright/test';

export const FAST_4G: {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
};
export const CPU_SLOWDOWN: number;
export function throttle(page: Page): Promise<CDPSession>;
