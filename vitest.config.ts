import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** `npm pack` rebuilds dist/ (prepack): while it does, no other test may spawn the built CLI. */
const REBUILDS_DIST = ['test/package/pack.test.ts'];

export default defineConfig({
  test: {
    // Deadlines only end a hung test; a test never waits on time, so no load on a shared machine may reach them.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two workers even on 2 cores: a test spends much of its time waiting on its sandbox's sockets, so
    // two files at once nearly halve the run (measured: 301 s → 162 s for the whole suite).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files share a worker's loaded modules instead of importing the CLI and the sandbox again each:
    // tests keep no module state between files (each starts its own sandbox, config dir and clock).
    isolate: false,
    // A missing snapshot fails instead of being written: new snapshots are made on purpose with `npx vitest run -u`.
    update: 'none',
    reporters: ['default', './test/support/count-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'svc', include: ['test/**/*.test.ts'], exclude: REBUILDS_DIST, sequence: { groupOrder: 0 } } },
      // Runs alone, once every other file has finished.
      { extends: true, test: { name: 'rebuild', include: REBUILDS_DIST, sequence: { groupOrder: 1 } } },
    ],
  },
});
