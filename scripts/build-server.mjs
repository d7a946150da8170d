// Compiles the server to apps/server/dist/main.js and the chunks it loads, so `npm start` runs plain Node
// (no TypeScript transform at start-up). npm packages stay in node_modules; the workspace contract, which
// ships TypeScript sources, is compiled in. Migrations are copied next to it.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'apps/server');
const dist = join(server, 'dist');

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: server,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // main.js starts PostgreSQL while the app's chunk loads (dynamic imports in main.ts).
  splitting: true,
  // Next to main.js: modules that find files beside themselves (migrations) keep finding them.
  chunkNames: '[name]-[hash]',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        // Bare imports are npm packages, loaded from node_modules at run time, except our own workspace.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@ohgood/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
cpSync(join(server, 'src/db/migrations'), join(dist, 'migrations'), { recursive: true });
