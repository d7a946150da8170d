import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from '@playwright/test';

/*
 * The e2e browser, with nothing but Node and npm: Debian's Chromium when it is there (or CHROME_PATH),
 * else the Chromium inside the npm package @sparticuz/chromium, unpacked once into node_modules/.cache.
 * Fonts come from npm too (Pretendard), through a fontconfig file of our own, so Hangul renders the same
 * on a bare machine as on one with system CJK fonts.
 */
const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cache = join(root, 'node_modules/.cache/ohgood-e2e');

export type BrowserSource = 'CHROME_PATH' | 'system' | 'npm';

/** Unpacks the npm Chromium (about 5 s, once) into a fresh directory, then moves it in place atomically. */
async function npmChromium(): Promise<string> {
  // The package exports no package.json: read it next to its entry point (build/index.js).
  const packageDir = resolve(dirname(require.resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = join(cache, `sparticuz-chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, 'unpacking-'));
  const { default: Chromium } = await import('@sparticuz/chromium');
  // The package unpacks into os.tmpdir(); point that at our staging directory for the duration.
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await Chromium.executablePath();
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another worker won the race
  }
  return binary;
}

/** `chromium` on PATH (Debian's /usr/bin/chromium), like a shell would find it. */
function chromiumOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'chromium');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

async function pickBrowser(): Promise<{ path: string; source: BrowserSource }> {
  if (process.env.CHROME_PATH) return { path: process.env.CHROME_PATH, source: 'CHROME_PATH' };
  const system = chromiumOnPath();
  if (system) return { path: system, source: 'system' };
  return { path: await npmChromium(), source: 'npm' };
}

/** A fontconfig file that sees only npm fonts: Pretendard (Hangul and Latin) for every family. */
function writeFontConfig(): string {
  const fonts = dirname(require.resolve('pretendard/dist/public/static/Pretendard-Regular.otf'));
  const dir = join(cache, 'fontconfig');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'fonts.conf');
  const alias = (family: string) =>
    `  <alias binding="same"><family>${family}</family><prefer><family>Pretendard</family></prefer></alias>`;
  writeFileSync(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      `  <dir>${fonts}</dir>`,
      `  <cachedir>${join(dir, 'cache')}</cachedir>`,
      ...['sans-serif', 'serif', 'monospace', 'system-ui'].map(alias),
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  return file;
}

export const browser = await pickBrowser();
export const chromiumPath = browser.path;
const fontConfig = writeFontConfig();

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

/**
 * The npm build's own recommended flags (software GL, no zygote, …), minus: the ones that would make tests
 * pass where a real browser fails (no web security, mixed content); `--single-process`, which serverless
 * sandboxes need but which breaks the second browser context of a browser (Playwright opens one per test);
 * and its headless mode, which Playwright sets itself.
 */
async function npmArgs(): Promise<string[]> {
  if (browser.source !== 'npm') return [];
  const { default: Chromium } = await import('@sparticuz/chromium');
  const dropped = ['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--headless'];
  return Chromium.args.filter((arg) => !dropped.some((flag) => arg.startsWith(flag)));
}

const args = [...(await npmArgs()), ...baseArgs];
const env = { ...process.env, FONTCONFIG_FILE: fontConfig } as Record<string, string>;

export const launchOptions: LaunchOptions = { executablePath: chromiumPath, args, env };

/** Chromium's fake camera (and microphone), no prompt; `videoFile` plays a y4m instead of the test pattern. */
export function fakeCameraLaunchOptions(videoFile?: string): LaunchOptions {
  return {
    ...launchOptions,
    args: [
      ...args,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      ...(videoFile ? [`--use-file-for-fake-video-capture=${videoFile}`] : []),
    ],
  };
}
