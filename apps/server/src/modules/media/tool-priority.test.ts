import { getPriority } from 'node:os';
import { expect, it } from 'vitest';
import { BACKGROUND_NICENESS, runTool } from './ffmpeg';

// nice(1) with no command prints the niceness it runs at: the tool's own priority, read from the tool.
const nicenessOf = async (background: boolean) => Number((await runTool('nice', [], { background })).stdout.trim());

it('runs a background tool (a transcode) nicer than the server, and a tool a request waits on at its priority', async () => {
  const server = getPriority();
  expect(await nicenessOf(true)).toBe(Math.min(19, server + BACKGROUND_NICENESS));
  expect(await nicenessOf(false)).toBe(server);
});
