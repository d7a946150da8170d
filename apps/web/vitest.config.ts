import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { reactOnPreact, zodTypesOnly } from './vite.config';

export default defineConfig({
  plugins: [react()],
  // The tests see the contract as the browser does.
  resolve: {
    alias: [
      zodTypesOnly,
      ...reactOnPreact,
      // Its package has no "exports": point at the ES build so the aliases above apply inside it.
      { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
    ],
  },
  // ES builds of the libraries (react-router's "node" build is CommonJS, which aliases cannot reach).
  environments: { client: { resolve: { conditions: ['module', 'import', 'development'] } } },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    // Libraries that import React are bundled by Vite too, so the aliases reach them (one Preact, no React).
    server: { deps: { inline: [/@testing-library\/react/, /@tanstack\/react-query/, /react-router/, /lucide-react/] } },
    css: { modules: { classNameStrategy: 'non-scoped' } },
  },
});
