/** Types for first-screens.mjs (used by the first-screen e2e). */
import type { Page } from '@playwright/test';

export interface FirstScreen {
  path: string;
  signedIn: boolean;
  skeleton?: string;
  content: string;
}
export const FIRST_SCREEN_TARGET_MS: number;
export const FIRST_SCREENS: FirstScreen[];
export function measureFirstScreen(
  page: Page,
  screen: FirstScreen,
  token?: string,
): Promise<{ firstScreen: number; content: number }>;
