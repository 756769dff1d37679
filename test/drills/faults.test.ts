import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, parseNdjson, svc } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

// 429, 503 and dropped connections on 10% of requests, slow answers on 2% more: a full listing
// still returns every project exactly once. One sandbox per fault seed, so each run meets a
// different pattern of faults; the sandbox's injected 429s ask for Retry-After: 1. Fifty pages
// of 20 draw as many faults as fifty pages of 100, for a fifth of the bytes to build and parse.
const PROJECTS = 1000;
const PER_PAGE = '20';
const FAULTS = '429=0.033,503=0.033,reset=0.034,slow=0.02';
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

afterAll(() => cleanupTempDirs());

describe(`projects list --all under faults (${FAULTS})`, () => {
  it.concurrent.each(SEEDS)('fault seed %i: every project exactly once', async (faultSeed) => {
    const sandbox = await startTestSandbox({ projects: PROJECTS, faults: FAULTS, faultSeed, slowMs: 200 });
    try {
      const result = await svc(['projects', 'list', '--all', '--per-page', PER_PAGE, '-o', 'ndjson'], {
        env: sandboxEnv(sandbox),
        timeout: 120_000,
      });
      const injected = sandbox.stats().faults;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      const ids = (parseNdjson(result.stdout) as Array<{ id: number }>).map((p) => p.id);
      expect(ids).toHaveLength(PROJECTS);
      expect(new Set(ids).size).toBe(PROJECTS);
      expect(Math.min(...ids)).toBe(1);
      expect(Math.max(...ids)).toBe(PROJECTS);
      // The run met faults at all (a seed that drew none would prove nothing).
      expect((injected['429'] ?? 0) + (injected['503'] ?? 0) + (injected.reset ?? 0), JSON.stringify(injected)).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
