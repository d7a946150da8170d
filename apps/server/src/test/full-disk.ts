import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FullDisk {
  /** A directory on a file system with no space left: writes of new data fail with ENOSPC. */
  dir: string;
  /** Frees the space again (removes the filler), as an operator clearing the disk would. */
  free(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A tiny tmpfs (256 KiB) filled to the last byte: the kernel answers ENOSPC exactly as a full data disk
 * does. Mounting needs root (the CI machine and the helpers run as root); without it the test fails loudly
 * rather than passing on a pretend disk.
 */
export async function fullDisk(): Promise<FullDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'ohgood-full-'));
  await run('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]);
  const filler = join(dir, 'filler');
  await fill(filler);
  return {
    dir,
    free: () => rm(filler, { force: true }),
    async close() {
      await run('umount', ['-l', dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Appends until the file system says ENOSPC. */
async function fill(file: string): Promise<void> {
  const chunk = Buffer.alloc(16 * 1024, 1);
  for (let i = 0; i < 1_000; i++) {
    try {
      await writeFile(file, chunk, { flag: 'a' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw error;
    }
  }
  throw new Error('the tmpfs never filled up');
}
