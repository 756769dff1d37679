import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A missing snapshot fails instead of being written: new snapshots are made on purpose with `npx vitest run -u`.
    update: 'none',
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
