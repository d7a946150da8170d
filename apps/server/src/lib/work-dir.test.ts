import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeWorkDir, removeWorkDir } from './work-dir';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ohgood-work-dir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it("makes a job's directory under this process's folder, making the folder when it is missing", async () => {
  const first = await makeWorkDir(root, 'job-');
  const second = await makeWorkDir(root, 'job-');
  expect(dirname(first)).toBe(join(root, String(process.pid)));
  expect(basename(first)).toMatch(/^job-/);
  expect(second).not.toBe(first);
  // Removed between jobs (another process cleaned the root): the next job makes it again.
  await rm(join(root, String(process.pid)), { recursive: true });
  expect(existsSync(await makeWorkDir(root, 'job-'))).toBe(true);
});

it('removes a job directory with its known files, missing ones too, and falls back to a walk for strays', async () => {
  const dir = await makeWorkDir(root, 'job-');
  writeFileSync(join(dir, 'video'), 'v');
  await removeWorkDir(dir, [join(dir, 'video'), join(dir, 'thumbnail')]);
  expect(existsSync(dir)).toBe(false);

  const other = await makeWorkDir(root, 'job-');
  writeFileSync(join(other, 'video'), 'v');
  writeFileSync(join(other, 'stray'), 's');
  await removeWorkDir(other, [join(other, 'video')]);
  expect(existsSync(other)).toBe(false);
  expect(readdirSync(join(root, String(process.pid)))).toEqual([]);
});
