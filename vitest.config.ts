import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Deadlines only end a hung test; a test never waits on time, so no load on a shared machine may reach them.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Files share a worker's loaded modules instead of importing the CLI and the sandbox again each:
    // tests keep no module state between files (each starts its own sandbox, config dir and clock).
    isolate: false,
    // A missing snapshot fails instead of being written: new snapshots are made on purpose with `npx vitest run -u`.
    update: 'none',
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
