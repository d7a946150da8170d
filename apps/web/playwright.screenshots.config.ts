import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run screenshots`: every route at 390×844 (Korean locale, Seoul time) into apps/web/screenshots/
 * (git-ignored), and the four small README images into docs/screenshots/. Same server set-up as the e2e.
 */
export default defineConfig({
  ...base,
  testMatch: 'screenshots.capture.ts',
  timeout: 300_000,
});
