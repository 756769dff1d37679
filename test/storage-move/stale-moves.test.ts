import { describe, expect, it } from 'vitest';
import type { KindSummary } from '../../src/workflows/storage-move/summary.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { svc } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';
import { env, FAST, idsOn, sandboxPerTest } from './helpers.js';

// Moves that existed before the run, containers not on --from, and history that a newer move
// made stale: each used to leave a container with no move, no queue entry and no outcome, so the
// watch waited for ever. The --wait-timeout bounds a regression; the assertions say it was not needed.

const sandbox = sandboxPerTest();

const schedule = (...args: string[]) => ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', ...args];
const posts = (sb: Sandbox, path: string) => sb.requests().filter((r) => r.method === 'POST' && r.rawPath === `/api/v4${path}`);

// The first move stays read-only for 2 × moveMs (scheduled, then started): long enough for the
// second command to start on a loaded machine; each test checks that it really met that move.
const SLOW_MOVE_MS = 4_000;

/** A sandbox closed when its own test ends: the tests below wait on their slow moves side by side. */
async function sandboxOf(onTestFinished: (close: () => Promise<void>) => void, options: SandboxOptions): Promise<Sandbox> {
  const sb = await startTestSandbox(options);
  onTestFinished(() => sb.close());
  return sb;
}

describe.concurrent('a move that existed before the run', () => {
  it('is found at the start, said, and followed to its end without a second POST', async ({ onTestFinished }) => {
    const sb = await sandboxOf(onTestFinished, { projects: 20, moveMs: SLOW_MOVE_MS });
    const first = await svc(schedule('--project', '2'), { env: env(sb) });
    expect(first.exitCode, first.stderr).toBe(0);
    const again = await svc(schedule('--project', '2'), { env: env(sb) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe(
      'warning: found 1 project move from default already running, started before this run; not scheduling it again\n',
    );
    const r = await svc(schedule('--project', '2', '--wait', '--wait-timeout', '40', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(posts(sb, '/projects/2/repository_storage_moves').map((p) => p.status)).toEqual([201]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: found 1 project move from default already running, started before this run; following it',
    ]);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('every named repository moved from default to storage2');
    const projects = JSON.parse(r.stdout) as { timed_out: boolean; kinds: KindSummary[] };
    expect(projects.timed_out).toBe(false);
    expect(projects.kinds[0]).toMatchObject({ total: 1, finished: 1, not_moved: [] });
    expect(sb.state.project(2)?.storage).toBe('storage2');
    expect(sb.state.moves('project')).toHaveLength(1);
  });

  it('in bulk mode, is said, neither POSTed again nor followed by a no-op move once it finishes', async ({ onTestFinished }) => {
    const sb = await sandboxOf(onTestFinished, { projects: 20, moveMs: SLOW_MOVE_MS, moveConcurrency: 50 });
    const first = await svc(schedule('--project', '3'), { env: env(sb) });
    expect(first.exitCode, first.stderr).toBe(0);
    const r = await svc(schedule('--kind', 'projects', '--wait', '--wait-timeout', '40', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(sb.state.skippedMoves().some((line) => /\(3\) was skipped: project is read-only/.test(line))).toBe(true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts(sb, '/projects/3/repository_storage_moves')).toHaveLength(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: found'))).toEqual([
      'warning: found 1 project move from default already running, started before this run; following it',
    ]);
    const project3 = sb.state.moves('project').filter((m) => m.containerId === 3);
    expect(project3.map((m) => `${m.source}>${m.dest}`)).toEqual(['default>storage2']);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });
});

describe('named containers not on --from', () => {
  it('counts one already on --to as done without sending a move', async () => {
    const sb = await sandbox({ projects: 20, moveMs: 5 });
    sb.state.setProjectStorage(10, 'storage2');
    const r = await svc(schedule('--project', '10', '--wait', '--wait-timeout', '20', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/project .*\(10\) is already on storage2/);
    expect((JSON.parse(r.stdout) as { kinds: KindSummary[] }).kinds[0]).toMatchObject({ total: 1, finished: 1, not_moved: [] });
    expect(sb.requests().filter((q) => q.method === 'POST')).toEqual([]);
    const now = await svc(schedule('--project', '10'), { env: env(sb) });
    expect(now.exitCode, now.stderr).toBe(0);
    expect(sb.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('refuses one on a third storage before sending anything (exit 6)', async () => {
    const sb = await sandbox({ projects: 20, moveMs: 5, storages: ['default', 'storage2', 'storage3'] });
    sb.state.setProjectStorage(10, 'storage3');
    const r = await svc(schedule('--project', '4', '--project', '10', '--wait', '--wait-timeout', '20', ...FAST), { env: env(sb) });
    expect(r.exitCode).toBe(6);
    expect(r.stderr.trim()).toMatch(/^svc: project .*\(10\) is on storage3, not on default: nothing was scheduled$/);
    expect(sb.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });
});

describe('wait without --since', () => {
  it('does not count a move that a newer move undid', async () => {
    const sb = await sandbox({ projects: 12, moveMs: 5 });
    const there = await svc(schedule('--project', '6', '--project', '7', '--wait', ...FAST), { env: env(sb) });
    expect(there.exitCode, there.stderr).toBe(0);
    const back = await svc(
      ['storage-move', 'schedule', '--from', 'storage2', '--to', 'default', '--project', '6', '--project', '7', '--wait', ...FAST],
      { env: env(sb) },
    );
    expect(back.exitCode, back.stderr).toBe(0);
    const onDefault = idsOn(sb, 'project', 'default');
    expect(onDefault).toContain(6);
    const r = await svc(
      [
        'storage-move',
        'wait',
        '--from',
        'default',
        '--to',
        'storage2',
        '--kind',
        'projects',
        '--wait-timeout',
        '40',
        ...FAST,
        '-o',
        'json',
      ],
      { env: env(sb) },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { kinds: KindSummary[] }).kinds[0]).toMatchObject({
      total: onDefault.length,
      still_on_source: 0,
      retries: 0,
      not_moved: [],
    });
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });
});
