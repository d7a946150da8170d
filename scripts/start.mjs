// `npm start`: builds the web app and compiles the server when either is missing or older than its sources,
// then runs the compiled server (plain Node), which serves the built app and the API on one port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist/index.html');
const serverMain = join(root, 'apps/server/dist/main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function newestOf(paths) {
  return Math.max(
    ...paths.map((p) => join(root, p)).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)),
  );
}

function buildWhenStale(output, sources, what, command) {
  if (existsSync(output) && statSync(output).mtimeMs >= newestOf(sources)) return;
  console.log(`Building ${what}...`);
  const build = spawnSync(command[0], command.slice(1), { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

buildWhenStale(
  dist,
  ['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'packages/contract/src'],
  'the web app',
  ['npm', 'run', 'build', '-w', 'apps/web'],
);
buildWhenStale(serverMain, ['apps/server/src', 'packages/contract/src'], 'the server', [
  process.execPath,
  join(root, 'scripts/build-server.mjs'),
]);

// A .env file at the root, when present, is read by Node itself (variables already set win).
const envFile = join(root, '.env');
const nodeArgs = existsSync(envFile) ? [`--env-file=${envFile}`] : [];
const server = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', serverMain], {
  cwd: join(root, 'apps/server'),
  // The IPC channel lets the server notice when this wrapper dies, even by kill -9, and stop its database.
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? join(root, 'data') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
// `npm start` runs this through `sh -c`, which does not pass on a SIGTERM sent to npm: when this process is
// orphaned (its parent is gone), stop the server as if it had been signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) server.kill('SIGTERM');
}, 1000).unref();
server.on('exit', (code) => process.exit(code ?? 0));
