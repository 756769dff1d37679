import { describe, expect, it } from 'vitest';
import type { KindSummary } from '../../src/workflows/storage-move/summary.js';
import { BIN, isolatedEnv, svc } from '../support/harness.js';
import { startHangProxy } from './hang-proxy.js';
import { spawnPty } from '../support/pty.js';
import { env, FAST, idsOn, sandboxPerTest, waitUntil } from './helpers.js';

// Storage-move details users met (issue #9 item 9 and 10, issue #10 item 4).

const sandbox = sandboxPerTest();

const schedule = (...args: string[]) => ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', ...args];
const kindsOf = (stdout: string) => (JSON.parse(stdout) as { kinds: KindSummary[] }).kinds;

describe('--max-in-flight', () => {
  it('refills a free slot at once, not at the next poll interval', async () => {
    // 12 projects two at a time are six rounds of a few milliseconds; waiting out a 30 s interval
    // between rounds would pass the 20 s limit.
    const sb = await sandbox({ projects: 12, moveMs: 5, moveConcurrency: 10 });
    const r = await svc(schedule('--kind', 'projects', '--max-in-flight', '2', '--interval', '30', '--wait-timeout', '20', '-o', 'json'), {
      env: env(sb),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(kindsOf(r.stdout)[0]).toMatchObject({ total: 12, finished: 12, in_flight: 0, still_on_source: 0, not_moved: [] });
    expect(sb.stats().moves.maxUnfinished).toBeLessThanOrEqual(2);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });
});

describe('--wait-timeout', () => {
  it('ends the wait on time with exit 8, the summary and the resume command while a poll hangs', async () => {
    const sb = await sandbox({ projects: 10, moveMs: 200, moveConcurrency: 1 });
    let hanging = false;
    const proxy = await startHangProxy(
      sb.url,
      (req) => hanging && req.method === 'GET' && (req.url ?? '').includes('repository_storage_moves'),
    );
    try {
      const child = svc(schedule('--kind', 'projects', '--wait', '--wait-timeout', '3', ...FAST, '-o', 'json'), {
        env: { ...env(sb), SVC_URL: proxy.url },
        // Without the deadline, the hung poll would last the per-request timeout (30 s) and its retries.
        timeout: 25_000,
      });
      await waitUntil(() => sb.state.moves('project').some((m) => m.state === 'finished'));
      hanging = true;
      const r = await child;
      expect(proxy.hung()).toBeGreaterThan(0);
      expect(r.exitCode, r.stderr).toBe(8);
      const summary = JSON.parse(r.stdout) as { timed_out: boolean; complete: boolean; kinds: KindSummary[] };
      expect(summary).toMatchObject({ timed_out: true, complete: false });
      const projects = summary.kinds[0] as KindSummary;
      expect(projects.finished + projects.cleanup_failed + projects.failed + projects.in_flight + projects.still_on_source).toBe(10);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.filter((l) => l.startsWith('timed out;'))).toEqual([
        expect.stringMatching(
          /^timed out; the moves go on on the server\. Resume with: svc storage-move wait --from default --to storage2 --kind projects --move-retries 3 --interval 0\.05 --since \S+Z$/,
        ),
      ]);
      expect(lines.at(-1)).toMatch(/^svc: incomplete: timed out; projects: \d+ not moved \(/);
    } finally {
      await proxy.close();
    }
  });
});

describe('the end of a run', () => {
  it('says every named repository moved when only named ones were, while others remain', async () => {
    const sb = await sandbox({ projects: 20, moveMs: 5 });
    const before = idsOn(sb, 'project', 'default');
    expect(before).toEqual(expect.arrayContaining([4, 9]));
    const r = await svc(schedule('--project', '4', '--project', '9', '--wait', ...FAST), { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('every named repository moved from default to storage2');
    expect(idsOn(sb, 'project', 'default')).toEqual(before.filter((id) => id !== 4 && id !== 9));
  });

  it('in a pipe, sums up the failed cleanups in one line with the count', async () => {
    const sb = await sandbox({ projects: 200, moveMs: 2, moveConcurrency: 50, moveFailureRate: 0.6, seed: 5 });
    const r = await svc(schedule('--kind', 'projects', '--wait', '--move-retries', '20', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    const projects = kindsOf(r.stdout)[0] as KindSummary;
    const cleanupFailed = sb.state.moves('project').filter((m) => m.state === 'cleanup failed').length;
    expect(cleanupFailed).toBeGreaterThan(1);
    expect(projects.cleanup_failed).toBe(cleanupFailed);
    expect(r.stderr.split('\n').filter((l) => l.includes('cleanup failed'))).toEqual([
      `warning: ${cleanupFailed} moved repositories keep their copies on the source (cleanup failed: ${cleanupFailed} projects): remove them by hand; their ids are the summary's cleanup_failed_ids (-o json)`,
    ]);
  });
});

describe('storage-move list with a filter', () => {
  it('shows on stderr how far it has read a long history while it scans', async () => {
    const sb = await sandbox({ projects: 250, moveMs: 2, moveConcurrency: 50 });
    const moved = await svc(schedule('--kind', 'projects', '--wait', ...FAST), { env: env(sb) });
    expect(moved.exitCode, moved.stderr).toBe(0);
    const history = sb.state.moves('project').length;
    expect(history).toBe(250);
    const r = await svc(['storage-move', 'list', '--state', 'failed', '--all', '-o', 'json'], {
      env: { ...env(sb), SVC_PROGRESS_INTERVAL_MS: '0' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'scanning project moves: 100 read, 0 matched',
      'scanning project moves: 200 read, 0 matched',
      'scanning project moves: 250 read, 0 matched',
    ]);
    // On a terminal the same scan shows as a spinner line, cleared before the result.
    const terminalEnv = { ...isolatedEnv({ env: { ...env(sb), SVC_PROGRESS_INTERVAL_MS: '0' } }), TERM: 'xterm' };
    const tty = await spawnPty(['node', BIN, 'storage-move', 'list', '--state', 'failed', '--all', '-o', 'json'], {
      env: terminalEnv,
    }).exit();
    expect(tty.exitCode, tty.output).toBe(0);
    const scanAt = tty.output.indexOf('scanning project moves: 100 read, 0 matched');
    expect(scanAt, tty.output).toBeGreaterThan(-1);
    expect(tty.output.indexOf('[]\r\n'), tty.output).toBeGreaterThan(scanAt);
  });
});
