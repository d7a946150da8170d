import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes .br and .gz beside every text asset of the build, so the server sends them precompressed
 * (@fastify/static `preCompressed`) at no CPU cost per request.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json)$/;
  return {
    name: 'ohgood-precompress',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? 'dist';
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir).filter((f) => compressible.test(f))) {
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** Endpoint declarations come with zod schemas that the browser never runs: zod is types-only here (ADR 0010). */
export const zodTypesOnly = {
  find: /^zod$/,
  replacement: fileURLToPath(new URL('./src/build/zod-stub.ts', import.meta.url)),
};

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxied = ['/api', '/auth', '/chat', '/media', '/health'];

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: { alias: [zodTypesOnly] },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    // Read by scripts/bench.mjs to measure what each route loads.
    manifest: true,
    chunkSizeWarningLimit: 200,
  },
});
