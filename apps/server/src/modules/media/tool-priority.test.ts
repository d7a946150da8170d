import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { expect, it } from 'vitest';
import { BACKGROUND_NICENESS, runTool } from './ffmpeg';

// nice(1) with no command prints the niceness it runs at: the tool's own priority, read from the tool.
const nicenessOf = async (background: boolean) => Number((await runTool('nice', [], { background })).stdout.trim());
// chrt(1) -p prints a process's scheduling policy: here the shell's own ($$), run as the tool.
const policyOf = async (background: boolean) =>
  (await runTool('sh', ['-c', 'chrt -p $$'], { background })).stdout.match(/policy: (\S+)/)?.[1];
const hasChrt = spawnSync('sh', ['-c', 'command -v chrt'], { stdio: 'ignore' }).status === 0;

it('runs a background tool (a transcode) nicer than the server, and a tool a request waits on at its priority', async () => {
  const server = getPriority();
  expect(await nicenessOf(true)).toBe(Math.min(19, server + BACKGROUND_NICENESS));
  expect(await nicenessOf(false)).toBe(server);
});

it('gives a background tool only the CPU no request wants (SCHED_IDLE) where chrt exists', async () => {
  if (hasChrt) {
    expect(await policyOf(true)).toBe('SCHED_IDLE');
    expect(await policyOf(false)).toBe('SCHED_OTHER');
  } else {
    // Without chrt (macOS) the niceness alone lowers it; the tool must still run.
    expect(await nicenessOf(true)).toBe(Math.min(19, getPriority() + BACKGROUND_NICENESS));
  }
});
