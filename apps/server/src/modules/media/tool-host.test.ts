import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runTool } from './ffmpeg';

const serverRoot = join(import.meta.dirname, '../../..');

it('starts tools from the helper process, never by forking the server', async () => {
  // The tool's parent is the POSIX wrapper; the wrapper's parent is who forked it.
  const { stdout } = await runTool('sh', ['-c', 'cut -d" " -f4 /proc/$PPID/stat']);
  const forker = Number(stdout.trim());
  expect(forker).toBeGreaterThan(0);
  expect(forker).not.toBe(process.pid);
  const forkerCommand = readFileSync(`/proc/${forker}/cmdline`, 'utf8').split('\0');
  expect(forkerCommand[0]).toBe(process.execPath);
  expect(forkerCommand[1]).toBe('-e');
  // One helper serves every tool.
  const again = await runTool('sh', ['-c', 'cut -d" " -f4 /proc/$PPID/stat']);
  expect(Number(again.stdout.trim())).toBe(forker);
});

it("streams a tool's output whole, multi-byte text split across chunks included, and its failure with stderr", async () => {
  const { stdout } = await runTool('sh', ['-c', 'i=0; while [ $i -lt 20000 ]; do echo "쇼츠-$i"; i=$((i+1)); done']);
  const lines = stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(20_000);
  expect(lines[12_345]).toBe('쇼츠-12345');
  await expect(runTool('sh', ['-c', 'echo 실패 >&2; exit 3'])).rejects.toMatchObject({
    name: 'ToolError',
    stderr: '실패\n',
  });
});

it('kills a tool when its signal aborts, and rejects with the reason', async () => {
  const stop = new AbortController();
  const running = runTool('sh', ['-c', 'echo started; sleep 30'], { signal: stop.signal });
  const reason = new Error('stopped by the test');
  setImmediate(() => stop.abort(reason));
  await expect(running).rejects.toBe(reason);
});

it('fails the runs of a helper that dies, and starts a new helper for the next tool', async () => {
  const forkerOf = async () => Number((await runTool('sh', ['-c', 'cut -d" " -f4 /proc/$PPID/stat'])).stdout.trim());
  const first = await forkerOf();
  const orphaned = runTool('sh', ['-c', 'echo started; sleep 5']);
  process.kill(first, 'SIGKILL');
  await expect(orphaned).rejects.toThrow('the tool helper exited');
  const second = await forkerOf();
  expect(second).not.toBe(first);
});

it('keeps a process that awaits a tool alive until the tool ends, then lets it exit', async () => {
  const script = `import { runTool } from './src/modules/media/ffmpeg.ts';
const { stdout } = await runTool('sh', ['-c', 'sleep 0.3; echo 끝']);
process.stdout.write(stdout);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  expect(printed).toBe('끝\n');
}, 30_000);
