import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

// One move in ten fails on the server; `schedule --wait --retries 3` still ends with every
// repository on the destination, and `verify` agrees.
const PROJECTS = 400;

afterAll(() => cleanupTempDirs());

describe('storage moves with 10% of moves failing', () => {
  it('schedule --wait --retries 3 moves every project to storage2 and verify passes', async () => {
    const sandbox = await startTestSandbox({ projects: PROJECTS, moveMs: 5, moveConcurrency: 50, moveFailureRate: 0.1, seed: 6 });
    try {
      const env = sandboxEnv(sandbox);
      const moved = await svc(
        [
          'storage-move',
          'schedule',
          '--from',
          'default',
          '--to',
          'storage2',
          '--kind',
          'projects',
          '--wait',
          '--move-retries',
          '3',
          '--interval',
          '0.2',
          '-o',
          'json',
        ],
        { env, timeout: 120_000 },
      );
      expect(moved.exitCode, moved.stderr).toBe(0);
      const summary = JSON.parse(moved.stdout) as {
        complete: boolean;
        kinds: Array<{ total: number; failed: number; still_on_source: number; retries: number }>;
      };
      expect(summary.complete).toBe(true);
      expect(summary.kinds[0]).toMatchObject({ total: PROJECTS, failed: 0, still_on_source: 0 });

      const failed = sandbox.state.moves('project').filter((m) => m.state === 'failed');
      expect(failed.length, 'the drill needs failed moves to retry').toBeGreaterThan(0);
      expect(summary.kinds[0]?.retries).toBe(failed.length);
      expect(sandbox.state.projectIdsOnStorage('default')).toEqual([]);
      expect(sandbox.state.projectIdsOnStorage('storage2')).toHaveLength(sandbox.state.projectCount());

      const verified = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'projects'], { env });
      expect(verified.exitCode, verified.stderr).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
