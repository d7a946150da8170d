import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // Absent in the few node-environment tests (build checks).
  globalThis.sessionStorage?.clear();
  globalThis.localStorage?.clear();
});
