import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxied = ['/api', '/auth', '/chat', '/media', '/health'];

export default defineConfig({
  plugins: [react()],
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
