import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect } from '@playwright/test';
import { launchOptions } from './chromium';
import { launchSurvivingStartCrash, test } from './fixtures';

/** A stand-in browser binary that dies by SIGSEGV on its first `crashes` starts, then is the real one. */
function crashingBrowser(crashes: number): { executablePath: string; starts: () => number; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-crashing-browser-'));
  const executablePath = join(dir, 'chromium');
  writeFileSync(
    executablePath,
    [
      '#!/bin/sh',
      `n=$(ls "${dir}" | grep -c '^start-')`,
      `touch "${dir}/start-$n"`,
      `if [ "$n" -lt ${crashes} ]; then kill -SEGV $$; fi`,
      `exec "${launchOptions.executablePath}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(executablePath, 0o755);
  let count = 0;
  return {
    executablePath,
    starts: () => {
      while (existsSync(join(dir, `start-${count}`))) count++;
      return count;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('a browser that crashes while starting is launched again, and serves pages', async () => {
  const binary = crashingBrowser(1);
  const browser = await launchSurvivingStartCrash(chromium, {
    ...launchOptions,
    executablePath: binary.executablePath,
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<p>살아났어요</p>');
    await expect(page.locator('p')).toHaveText('살아났어요');
    expect(binary.starts()).toBe(2);
  } finally {
    await browser.close();
    binary.remove();
  }
});

test('a browser that keeps crashing fails the launch after three tries', async () => {
  const binary = crashingBrowser(99);
  await expect(
    launchSurvivingStartCrash(chromium, { ...launchOptions, executablePath: binary.executablePath }),
  ).rejects.toThrow(/closed|exit/);
  expect(binary.starts()).toBe(3);
  binary.remove();
});
