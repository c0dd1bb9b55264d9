import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['services/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests hold real connections; two cores run at most two files at a time.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
