import { mkdir, mkdtemp, readdir, rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Scratch space for uploads, transcodes and the demo render: `DATA_DIR/tmp/<pid>/…`, not the system temp
 * directory, so a process killed mid-transcode (kill -9) leaves its files where the next start finds them.
 */
export function workRoot(dataDir: string): string {
  return resolve(dataDir, 'tmp');
}

/**
 * A fresh directory for one job, under this process's own folder; the caller removes it when done. The
 * folder is made only when missing: an upload waits on each file-system call, and under load each one
 * waits its turn on the event loop.
 */
export async function makeWorkDir(root: string, prefix: string): Promise<string> {
  const mine = join(root, String(process.pid));
  try {
    return await mkdtemp(join(mine, prefix));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(mine, { recursive: true });
    return mkdtemp(join(mine, prefix));
  }
}

/**
 * Removes a job's directory whose files the job knows. Most jobs moved their files away, so the empty
 * directory goes in one call; else the known files go at once, then the directory (two steps instead of a
 * recursive walk's five or six). Anything unexpected left inside falls back to the walk.
 */
export async function removeWorkDir(dir: string, files: readonly string[]): Promise<void> {
  if (
    await rmdir(dir).then(
      () => true,
      () => false,
    )
  )
    return;
  await Promise.all(files.map((file) => rm(file, { force: true })));
  await rmdir(dir).catch(() => rm(dir, { recursive: true, force: true }));
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
