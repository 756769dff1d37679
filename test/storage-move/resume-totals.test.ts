import { describe, expect, it } from 'vitest';
import type { KindSummary } from '../../src/workflows/storage-move/summary.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { svc } from '../support/harness.js';
import { env, FAST, idsOn, sandboxPerTest, waitUntil } from './helpers.js';

// More projects than one page of moves (100): `wait --since` must page back to the boundary.
const PROJECTS = 350;

const sandbox = sandboxPerTest();

const projectsOf = (stdout: string) => (JSON.parse(stdout) as { kinds: KindSummary[] }).kinds[0] as KindSummary;

/** Runs the `svc storage-move wait …` command a schedule printed, with JSON output. */
async function runPrinted(sb: Sandbox, stderr: string, pattern: RegExp) {
  const command = pattern.exec(stderr)?.[1];
  expect(command, stderr).toMatch(/^svc storage-move wait .* --since \S+Z$/);
  return svc([...(command as string).split(' ').slice(1), '-o', 'json'], { env: env(sb) });
}

describe('wait --since counts every move of the original run', () => {
  it('when resumed part-way, with failed moves retried', async () => {
    const sb = await sandbox({ projects: PROJECTS, moveMs: 15, moveConcurrency: 10, moveFailureRate: 0.1, seed: 3 });
    const onSource = idsOn(sb, 'project', 'default');
    const scheduled = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', ...FAST], {
      env: env(sb),
    });
    expect(scheduled.exitCode, scheduled.stderr).toBe(0);
    await waitUntil(() => sb.state.moves('project').filter((m) => m.state === 'finished').length >= 150, 60_000);
    const r = await runPrinted(sb, scheduled.stderr, /watch them with: (svc storage-move wait .*)$/m);
    expect(r.exitCode, r.stderr).toBe(0);
    const projects = projectsOf(r.stdout);
    expect(projects).toMatchObject({ total: onSource.length, failed: 0, still_on_source: 0, not_moved: [] });
    expect(projects.finished + projects.cleanup_failed).toBe(onSource.length);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });

  it('when run again after everything moved', async () => {
    const sb = await sandbox({ projects: PROJECTS, moveMs: 2, moveConcurrency: 50 });
    const earlier = await svc(
      ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', ...FAST, '--debug'],
      { env: env(sb) },
    );
    expect(earlier.exitCode, earlier.stderr).toBe(0);
    sb.clearRequests();
    const r = await runPrinted(sb, earlier.stderr, /resume command: (svc storage-move wait .*)$/m);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(projectsOf(r.stdout)).toMatchObject({ total: PROJECTS, finished: PROJECTS, still_on_source: 0, not_moved: [] });
    expect(sb.requests().filter((q) => q.method === 'POST')).toEqual([]);

    const withoutSince = await svc(
      ['storage-move', 'wait', '--from', 'default', '--to', 'storage2', '--kind', 'projects', ...FAST, '-o', 'json'],
      { env: env(sb) },
    );
    expect(withoutSince.exitCode, withoutSince.stderr).toBe(0);
    expect(projectsOf(withoutSince.stdout)).toMatchObject({ total: 0, not_moved: [] });
    expect(withoutSince.stderr).toMatch(
      /^totals count what is on default now; to count the moves that finished earlier too, pass the --since printed by schedule/m,
    );
  });

  it('when run with no boundary after every kind moved, snippets included: nothing of the earlier run counts', async () => {
    const sb = await sandbox({ projects: 30, moveMs: 2, moveConcurrency: 50 });
    const earlier = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', ...FAST], { env: env(sb) });
    expect(earlier.exitCode, earlier.stderr).toBe(0);
    expect(sb.state.moves('snippet').length).toBeGreaterThan(0);
    sb.clearRequests();
    const r = await svc(['storage-move', 'wait', '--from', 'default', '--to', 'storage2', ...FAST, '-o', 'json'], { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    const kinds = (JSON.parse(r.stdout) as { kinds: KindSummary[] }).kinds;
    expect(kinds.map((k) => [k.kind, k.total, k.finished, k.retries])).toEqual([
      ['projects', 0, 0, 0],
      ['snippets', 0, 0, 0],
      ['groups', 0, 0, 0],
    ]);
    expect(sb.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });
});
