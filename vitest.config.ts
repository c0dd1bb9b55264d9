import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests hold real connections; two cores run at most two files at a time.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'services', include: ['services/*/test/**/*.test.ts'] },
      },
      {
        // The SPA's unit tests, in a DOM.
        extends: true,
        test: { name: 'web', include: ['web/test/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['web/test/setup.ts'] },
      },
      {
        // The whole system in headless Chromium (e2e/harness.ts); a file may first build the SPA.
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
