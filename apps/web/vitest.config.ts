import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { zodTypesOnly } from './vite.config';

export default defineConfig({
  plugins: [react()],
  // The tests see the contract as the browser does.
  resolve: { alias: [zodTypesOnly] },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
  },
});
