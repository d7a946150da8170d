import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The helper's whole program (plain JavaScript, run by `node -e`, so it needs no file in the build): it spawns
 * each command it is sent, streams the command's output back over the IPC channel, kills one on request, and
 * when the server goes (the channel closes, even after kill -9) kills what it started and exits.
 */
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
const runs = new Map();
const send = (message) => process.connected && process.send(message);
process.on('message', (m) => {
  if (m.kill !== undefined) return void runs.get(m.kill)?.kill('SIGTERM');
  let child;
  try {
    child = spawn(m.command, m.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...m.env } });
  } catch (error) {
    return void send({ id: m.id, error: String(error && error.message) });
  }
  runs.set(m.id, child);
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (text) => send({ id: m.id, stdout: text }));
  child.stderr.on('data', (text) => send({ id: m.id, stderr: text }));
  child.on('error', (error) => runs.delete(m.id) && send({ id: m.id, error: error.message }));
  child.on('close', (code) => runs.delete(m.id) && send({ id: m.id, code }));
});
process.on('disconnect', () => {
  for (const child of runs.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

interface HelperMessage {
  id: number;
  stdout?: string;
  stderr?: string;
  code?: number | null;
  error?: string;
}

export interface HostedOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

interface PendingRun extends HostedOutput {
  settle(outcome: { code: number | null } | { error: Error }): void;
}

/** The helper process and the runs it owes an answer (a helper that dies fails its own runs only). */
interface Helper {
  child: ChildProcess;
  runs: Map<number, PendingRun>;
}

let current: Helper | null = null;
let nextId = 1;

/** The channel keeps the server alive only while a tool runs (a CLI awaiting a tool must not exit under it). */
function holdWhileRunning(helper: Helper): void {
  if (helper.runs.size > 0) helper.child.channel?.ref();
  else helper.child.channel?.unref();
}

function startHelper(): Helper {
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const helper: Helper = { child, runs: new Map() };
  child.unref();
  child.on('message', (message: HelperMessage) => {
    const run = helper.runs.get(message.id);
    if (!run) return;
    if (message.stdout !== undefined) run.stdout(message.stdout);
    if (message.stderr !== undefined) run.stderr(message.stderr);
    if (message.error !== undefined) run.settle({ error: new Error(message.error) });
    else if (message.code !== undefined) run.settle({ code: message.code });
  });
  const gone = (error: Error) => {
    if (current === helper) current = null;
    for (const run of [...helper.runs.values()]) run.settle({ error });
  };
  child.on('exit', () => gone(new Error('the tool helper exited')));
  child.on('error', gone);
  return helper;
}

/**
 * Runs `command` through the tool helper, a small process of its own (ADR 0165), started on the first call:
 * forking copies the forking process's page tables and marks its memory copy-on-write, so a tool spawned by
 * the server itself held its event loop 7–9 ms and then cost it a page fault for each page it wrote next.
 * Resolves with the exit code (null when a signal ended it); `signal` kills the command (SIGTERM).
 */
export function runHosted(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  output: HostedOutput,
  signal?: AbortSignal,
): Promise<number | null> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (!current?.child.connected) current = startHelper();
  const helper = current;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const abort = () => helper.child.connected && helper.child.send({ kill: id });
    signal?.addEventListener('abort', abort, { once: true });
    helper.runs.set(id, {
      ...output,
      settle(outcome) {
        if (!helper.runs.delete(id)) return;
        signal?.removeEventListener('abort', abort);
        holdWhileRunning(helper);
        if ('error' in outcome) reject(signal?.aborted ? signal.reason : outcome.error);
        else if (signal?.aborted) reject(signal.reason);
        else resolve(outcome.code);
      },
    });
    holdWhileRunning(helper);
    helper.child.send({ id, command, args, env });
  });
}
