import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { endpointDocsLeftOut } from './src/build/endpoint-docs';
import { type Manifest, pagesOfTable, routeHints } from './src/build/route-hints';

/**
 * Writes .br and .gz beside every text asset of the build, so the server sends them precompressed
 * (@fastify/static `preCompressed`) at no CPU cost per request.
 */
function precompress(scope: 'whole-dist' | 'own-files' = 'whole-dist'): Plugin {
  const compressible = /\.(js|css|html|svg|json)$/;
  return {
    name: 'ohgood-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      // The console's build adds to the app's dist: it compresses only what it wrote.
      const files = scope === 'own-files' ? Object.keys(bundle).map((name) => join(outDir, name)) : walk(outDir);
      for (const file of files.filter((f) => compressible.test(f))) {
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Writes route-hints.json: the chunks and stylesheets of each lazily loaded page (src/app/page-table.ts),
 * which the server puts in that page's HTML as preload links (apps/server/src/http/web-app.ts).
 */
function routeHintsFile(): Plugin {
  return {
    name: 'ohgood-route-hints',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? 'dist';
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
      const pages = pagesOfTable(
        readFileSync(fileURLToPath(new URL('./src/app/page-table.ts', import.meta.url)), 'utf8'),
      );
      // Every lazy page renders inside a data boundary (src/app/router.tsx), whose provider's chunk main.tsx
      // loads with the page's before hydrating it: named in the HTML, it does not wait for the entry to run.
      const hints = routeHints(pages, manifest, ['src/app/query-provider']);
      writeFileSync(join(outDir, 'route-hints.json'), JSON.stringify(hints));
    },
  };
}

/**
 * Endpoint declarations come with zod schemas that the browser never runs: zod is types-only here (ADR 0010).
 * src/build/schema-values.test.ts fails on any use of a schema as a value in the web's code (ADR 0116).
 */
export const zodTypesOnly = {
  find: /^zod$/,
  replacement: fileURLToPath(new URL('./src/build/zod-stub.ts', import.meta.url)),
};

/**
 * React Router's package exports only its development build (warnings and checks that run in the browser);
 * the production build beside it is the same API without them (0.4 KB gzip less). The app's build uses it.
 */
function routerProductionBuild(): Plugin {
  const production = join(dirname(createRequire(import.meta.url).resolve('react-router')), '../production/index.mjs');
  return {
    name: 'ohgood-router-production-build',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id) => (id === 'react-router' ? production : null),
  };
}

/**
 * The libraries every page runs, each in a chunk of its own (ADR 0117): a deploy that changes only the app's
 * code leaves them cached on the phone, and each library's update invalidates only its own chunk.
 */
const vendorChunks = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /[\\/]node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
  { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
];

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxied = ['/api', '/auth', '/chat', '/media', '/health'];

/**
 * Installable app (ADR 0041): the manifest, and a Workbox service worker that precaches the
 * built app and answers a page load without a network with offline.html. Only production builds get it
 * (dev has none), and the e2e browser blocks service workers except in the PWA spec.
 */
const pwa = VitePWA({
  registerType: 'autoUpdate',
  // Registered by the app itself once the page has settled (src/app/service-worker.ts).
  injectRegister: false,
  includeAssets: ['favicon.svg', 'offline.html', 'icons/*.svg', 'icons/apple-touch-icon.png'],
  manifest: {
    id: '/',
    name: '오굿페이',
    short_name: '오굿페이',
    description: 'QR·PIN으로 결제하고 다음 달에 납부하는 후불결제, 쇼츠 보고 포인트 받기',
    lang: 'ko',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: '#ff6b3d',
    background_color: '#f5f6f8',
    categories: ['finance', 'shopping'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    shortcuts: [
      { name: 'QR·PIN 결제', url: '/qrpin', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
      { name: '결제 내역', url: '/payment/details', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
    ],
  },
  workbox: {
    // Web Push: the notices the server pushes are shown by this small handler (public/sw-push.js).
    importScripts: ['/sw-push.js'],
    // The app shell and its chunks; media, API answers and the big scanner worker are never cached. Fonts are
    // not precached either: the 92 Pretendard subsets weigh 3 MB, and a page needs a handful of them. The
    // browser fetches those by unicode-range; the worker keeps each one it saw (below) for offline use.
    globPatterns: ['**/*.{js,css,html,svg,png}'],
    globIgnores: ['**/qr-scanner-worker*'],
    maximumFileSizeToCacheInBytes: 600 * 1024,
    navigateFallback: null,
    cleanupOutdatedCaches: true,
    runtimeCaching: [
      {
        urlPattern: ({ request }) => request.destination === 'font',
        handler: 'CacheFirst',
        options: { cacheName: 'ohgood-fonts', expiration: { maxEntries: 120 } },
      },
      {
        // Pages always come from the network (money screens must be current); offline, offline.html.
        urlPattern: ({ request }) => request.mode === 'navigate',
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/offline.html' } },
      },
    ],
  },
});

/**
 * In development, /ops and its deep links (/ops/enrol/…) open the console's own page, as the server does.
 */
function consolePageInDev(): Plugin {
  return {
    name: 'ohgood-console-page-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/ops(\/|$|\?)/.test(req.url)) req.url = '/ops.html';
        next();
      });
    },
  };
}

/**
 * The operator console (ADR 0138) is a page of its own, `ops.html`, built after the app (`--mode ops`) into the
 * same dist: nothing of it, not even a route, is in the customer app's bundle, so the console adds no byte to
 * the customer's first load. The server answers /ops/* with ops.html.
 */
const consoleBuild = defineConfig({
  plugins: [routerProductionBuild(), endpointDocsLeftOut(), react(), precompress('own-files')],
  resolve: { alias: [zodTypesOnly] },
  build: {
    outDir: 'dist',
    // The app's build is already there.
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: false,
    // The app's manifest (bench, route hints) stays the app's alone.
    manifest: false,
    chunkSizeWarningLimit: 300,
    rolldownOptions: { input: fileURLToPath(new URL('./ops.html', import.meta.url)) },
  },
});

export default defineConfig(({ isSsrBuild, mode }) =>
  mode === 'ops'
    ? consoleBuild
    : {
        // The prerender's server bundle (src/build/prerender.tsx) needs none of the client build's own files.
        plugins: [
          routerProductionBuild(),
          endpointDocsLeftOut(),
          react(),
          consolePageInDev(),
          ...(isSsrBuild ? [] : [precompress(), routeHintsFile(), pwa]),
        ],
        resolve: { alias: [zodTypesOnly] },
        server: {
          port: 5173,
          proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
        },
        build: {
          outDir: 'dist',
          target: 'es2022',
          sourcemap: false,
          // No map of every lazy chunk's dependencies in the entry (1.7 KB gzip of the first load, ADR 0249): a
          // page's first load is named whole by the server's route hints, later navigations come from the
          // service worker's precache. A lazy chunk's stylesheet is still loaded with it. The HTML does name the
          // entry's own imports (React, the router), fetched beside the entry, not once it has arrived (ADR 0260).
          modulePreload: {
            polyfill: false,
            resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
          },
          // Read by scripts/bench.mjs (what each route loads) and by the route-hints step.
          manifest: !isSsrBuild,
          chunkSizeWarningLimit: 200,
          rolldownOptions: { output: { codeSplitting: { groups: vendorChunks } } },
        },
      },
);
