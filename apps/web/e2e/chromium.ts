import type { LaunchOptions } from '@playwright/test';

/** Debian's Chromium (no browser download exists here); CHROME_PATH overrides. */
export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Flags for a closed network: without the background-networking ones Chromium keeps dialling out. */
const baseArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchOptions: LaunchOptions = { executablePath: chromiumPath, args: baseArgs };

/** Chromium's fake camera (and microphone), no prompt; `videoFile` plays a y4m instead of the test pattern. */
export function fakeCameraLaunchOptions(videoFile?: string): LaunchOptions {
  return {
    executablePath: chromiumPath,
    args: [
      ...baseArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      ...(videoFile ? [`--use-file-for-fake-video-capture=${videoFile}`] : []),
    ],
  };
}
