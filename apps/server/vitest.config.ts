import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // One PostgreSQL server and one migrated template per run; each test file copies the template.
    globalSetup: ['src/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Generous: real ffmpeg, argon2 and property runs share 2 cores with other work; a hang still fails.
    testTimeout: 120_000,
    // beforeAll hooks upload and transcode real clips (waiting on the pipeline's idle event): on a loaded
    // 2-core machine that can pass a minute.
    hookTimeout: 180_000,
  },
});
