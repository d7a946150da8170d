import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Scratch space for uploads, transcodes and the demo render: `DATA_DIR/tmp/<pid>/…`, not the system temp
 * directory, so a process killed mid-transcode (kill -9) leaves its files where the next start finds them.
 */
export function workRoot(dataDir: string): string {
  return resolve(dataDir, 'tmp');
}

/** A fresh directory for one job, under this process's own folder; the caller removes it when done. */
export async function makeWorkDir(root: string, prefix: string): Promise<string> {
  const mine = join(root, String(process.pid));
  await mkdir(mine, { recursive: true });
  return mkdtemp(join(mine, prefix));
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what dead processes left (their pid folder no longer runs) and anything that is not a pid folder;
 * folders of live processes sharing this DATA_DIR are kept. Returns the names removed.
 */
export async function cleanWorkRoot(root: string): Promise<string[]> {
  const entries = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of entries) {
    const pid = /^\d+$/.test(name) ? Number(name) : null;
    if (pid !== null && isRunning(pid)) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
