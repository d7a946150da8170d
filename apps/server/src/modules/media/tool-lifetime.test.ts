import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { testTools } from '../../test/media';

const serverRoot = join(import.meta.dirname, '../../..');

/** Pids of live processes whose command line contains `marker` (from /proc: no tool needed). */
function pidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        // The tool itself: not its shell, not the script that carries the marker in its source.
        return cmd.includes(marker) && state !== 'Z' && (cmd.split('\0')[0] ?? '').endsWith('ffmpeg');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Ten minutes of test pattern encoded to nowhere, tagged with `marker` so the test can find this ffmpeg. */
function longEncode(marker: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=duration=600:size=32x32:rate=5',
    '-metadata',
    `comment=${marker}`,
    '-f',
    'null',
    '-',
  ];
}

async function until(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return test();
}

it('an ffmpeg started by the server dies with it, even when the server is killed with SIGKILL', async () => {
  // A unique, harmless argument to find this ffmpeg by: a long encode to nowhere.
  const marker = `ohgood-lifetime-${Date.now()}`;
  const script = `import { runTool } from './src/modules/media/ffmpeg.ts';
runTool(${JSON.stringify(testTools.ffmpeg)}, ${JSON.stringify(longEncode(marker))});
setInterval(() => {}, 1000);`;
  const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: serverRoot,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  expect(await until(() => pidsWith(marker).length === 1, 30_000)).toBe(true);
  server.kill('SIGKILL');
  await exited;
  // The watcher checks once a second.
  expect(await until(() => pidsWith(marker).length === 0, 5_000)).toBe(true);
}, 60_000);
