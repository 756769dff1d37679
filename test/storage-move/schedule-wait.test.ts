import { describe, expect, it } from 'vitest';
import type { KindSummary } from '../../src/workflows/storage-move/summary.js';
import { spawnSvc, svc } from '../support/harness.js';
import { env, FAST, idsOn, sandboxPerTest, moveListRequests, waitUntil } from './helpers.js';

const sandbox = sandboxPerTest();

describe('schedule --wait', () => {
  it('moves every project, snippet and group, retrying failed moves, and prints one JSON summary', async () => {
    const sb = await sandbox({ projects: 120, moveMs: 5, moveFailureRate: 0.3 });
    const before = {
      project: idsOn(sb, 'project', 'default'),
      snippet: idsOn(sb, 'snippet', 'default'),
      group: idsOn(sb, 'group', 'default'),
    };
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', ...FAST, '-o', 'json'], {
      env: env(sb),
    });
    expect(r.stderr).toContain('every repository moved from default to storage2');
    expect(r.exitCode).toBe(0);
    for (const kind of ['project', 'snippet', 'group'] as const) {
      expect(idsOn(sb, kind, 'default')).toEqual([]);
      expect(idsOn(sb, kind, 'storage2')).toEqual(before[kind]);
    }
    const summary = JSON.parse(r.stdout) as {
      complete: boolean;
      timed_out: boolean;
      from: string;
      to: string;
      kinds: KindSummary[];
      requests: Record<string, number>;
    };
    expect(summary).toMatchObject({ from: 'default', to: 'storage2', complete: true, timed_out: false });
    expect(summary.kinds.map((k) => k.kind)).toEqual(['projects', 'snippets', 'groups']);
    const projects = summary.kinds[0] as KindSummary;
    expect(projects).toMatchObject({ total: 120, failed: 0, still_on_source: 0, not_moved: [] });
    expect(projects.finished + projects.cleanup_failed).toBe(120);
    const failedMoves = sb.state.moves('project').filter((m) => m.state === 'failed').length;
    expect(failedMoves).toBeGreaterThan(0);
    expect(projects.retries).toBe(failedMoves);
    expect(projects.cleanup_failed_ids).toHaveLength(projects.cleanup_failed);
    expect(Object.keys(projects).sort()).toEqual(
      [
        'kind',
        'total',
        'finished',
        'cleanup_failed',
        'failed',
        'in_flight',
        'still_on_source',
        'retries',
        'scheduled_singly',
        'duration_seconds',
        'not_moved',
        'cleanup_failed_ids',
      ].sort(),
    );
    expect(summary.requests.polls).toBeGreaterThan(0);
  });

  it('schedules singly the containers the bulk job skipped', async () => {
    const sb = await sandbox({ projects: 150, moveMs: 5, bulkSkipRate: 0.2 });
    const r = await svc(
      ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', ...FAST, '-o', 'json'],
      { env: env(sb) },
    );
    expect(r.exitCode).toBe(0);
    const skipped = sb.state.skippedMoves().length;
    expect(skipped).toBeGreaterThan(0);
    const projects = (JSON.parse(r.stdout) as { kinds: KindSummary[] }).kinds[0] as KindSummary;
    expect(projects.scheduled_singly).toBe(skipped);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });

  it('prints a tab-separated summary per kind when stdout is not a terminal', async () => {
    const sb = await sandbox({ projects: 60, moveMs: 5 });
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'groups', '--wait', ...FAST], {
      env: env(sb),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const [header, row] = r.stdout.trimEnd().split('\n');
    expect(header).toBe('kind\ttotal\tfinished\tcleanup_failed\tfailed\tin_flight\tstill_on_source\tretries\tduration');
    expect(row, r.stderr).toMatch(/^groups\t6\t6\t0\t0\t0\t0\t0\t\d+\.\ds$/);
    expect(r.stderr, r.stdout).toMatch(/^groups \d+\/6 finished/m);
  });

  it('prints only the --fields columns of the summary, in tsv, ndjson and json', async () => {
    const sb = await sandbox({ projects: 60, moveMs: 5 });
    const run = (from: string, to: string, format: string) =>
      svc(
        [
          'storage-move',
          'schedule',
          '--from',
          from,
          '--to',
          to,
          '--kind',
          'groups',
          '--wait',
          ...FAST,
          '-o',
          format,
          '--fields',
          'kind,total',
        ],
        { env: env(sb) },
      );
    const tsv = await run('default', 'storage2', 'tsv');
    expect(tsv.exitCode, tsv.stderr).toBe(0);
    expect(tsv.stdout).toBe('kind\ttotal\ngroups\t6\n');
    const ndjson = await run('storage2', 'default', 'ndjson');
    expect(ndjson.exitCode, ndjson.stderr).toBe(0);
    expect(ndjson.stdout).toBe('{"kind":"groups","total":6}\n');
    const json = await run('default', 'storage2', 'json');
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ complete: true, kinds: [{ kind: 'groups', total: 6 }] });
    expect(Object.keys((JSON.parse(json.stdout) as { kinds: object[] }).kinds[0] as object)).toEqual(['kind', 'total']);
  });

  it('keeps at most --max-in-flight moves running in the rolling mode', async () => {
    const sb = await sandbox({ projects: 60, moveMs: 5, moveConcurrency: 20, moveFailureRate: 0.2 });
    const r = await svc(
      ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--max-in-flight', '3', ...FAST],
      { env: env(sb) },
    );
    expect(r.exitCode).toBe(0);
    expect(sb.stats().moves.maxRunning).toBeLessThanOrEqual(3);
    expect(sb.stats().moves.maxUnfinished).toBeLessThanOrEqual(3);
    expect(sb.stats().moves.maxRunning).toBeGreaterThan(1);
    expect(sb.requests().some((q) => q.method === 'POST' && q.rawPath === '/api/v4/project_repository_storage_moves')).toBe(false);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });

  it('ends with 8, the summary and the command that resumes at --wait-timeout; the columns add up to total', async () => {
    const sb = await sandbox({ projects: 60, moveMs: 400, moveConcurrency: 2 });
    const r = await svc(
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
        '--wait-timeout',
        '1',
        ...FAST,
        '-o',
        'json',
      ],
      { env: env(sb) },
    );
    expect(r.exitCode).toBe(8);
    const summary = JSON.parse(r.stdout) as { complete: boolean; timed_out: boolean; kinds: KindSummary[] };
    expect(summary).toMatchObject({ complete: false, timed_out: true });
    const projects = summary.kinds[0] as KindSummary;
    expect(projects.total).toBe(60);
    expect(projects.finished + projects.cleanup_failed + projects.failed + projects.in_flight + projects.still_on_source).toBe(60);
    // Two moves run at once on the server, and the timeout found them running.
    expect(projects.in_flight).toBeGreaterThan(0);
    expect(projects.not_moved).toHaveLength(projects.failed + projects.in_flight + projects.still_on_source);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('timed out;'))).toEqual([
      expect.stringMatching(
        /^timed out; the moves go on on the server\. Resume with: svc storage-move wait --from default --to storage2 --kind projects --move-retries 3 --interval 0\.05 --since \S+Z$/,
      ),
    ]);
    // The run's last word is one `svc:` line, like every failure.
    expect(lines.at(-1)).toBe(
      `svc: incomplete: timed out; projects: ${projects.not_moved.length} not moved (${projects.not_moved.slice(0, 10).join(', ')}, … ${projects.not_moved.length - 10} more)`,
    );
    expect(lines.filter((l) => l.includes('incomplete'))).toHaveLength(1);
  });

  it('survives 429, 503 and connection resets while watching', async () => {
    const sb = await sandbox({ projects: 80, moveMs: 5, moveFailureRate: 0.2, faults: '429=0.05,503=0.05,reset=0.03', faultSeed: 7 });
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', ...FAST], {
      env: env(sb),
    });
    expect(r.exitCode).toBe(0);
    expect(Object.values(sb.stats().faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });
});

describe('polling cost', () => {
  it('does not page through earlier moves: a second run reads only its own part of the history', async () => {
    const sb = await sandbox({ projects: 200, moveMs: 2, moveConcurrency: 50 });
    const args = (from: string, to: string) => [
      'storage-move',
      'schedule',
      '--from',
      from,
      '--to',
      to,
      '--kind',
      'projects',
      '--wait',
      ...FAST,
      '--debug',
    ];
    const first = await svc(args('default', 'storage2'), { env: env(sb) });
    expect(first.exitCode).toBe(0);
    const history = sb.state.moves('project').length;
    sb.clearRequests();
    const second = await svc(args('storage2', 'default'), { env: env(sb) });
    expect(second.exitCode).toBe(0);
    const ownMoves = sb.state.moves('project').length - history;
    const listings = moveListRequests(sb, 'project');
    // Offsets past this run's own moves hold only the first run's: never read.
    for (const { page, perPage } of listings) expect((page - 1) * perPage).toBeLessThan(ownMoves);
    const polls = [...second.stderr.matchAll(/\[debug\] poll \d+: (\d+) requests/g)].map((m) => Number(m[1]));
    expect(polls.length).toBeGreaterThan(0);
    expect(Math.max(...polls)).toBeLessThanOrEqual(Math.ceil(ownMoves / 100) + 2);
  });
});

describe('wait', () => {
  it('resumes after the first process is killed mid-way and rebuilds everything from the server', async () => {
    const sb = await sandbox({ projects: 150, moveMs: 20, moveConcurrency: 5, moveFailureRate: 0.2 });
    const first = spawnSvc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', ...FAST], { env: env(sb) });
    await waitUntil(() => sb.state.moves('project').filter((m) => m.state === 'finished').length >= 20);
    first.kill('SIGKILL');
    await first;
    expect(idsOn(sb, 'project', 'default').length).toBeGreaterThan(0);
    const r = await svc(['storage-move', 'wait', '--from', 'default', '--to', 'storage2', ...FAST, '-o', 'json'], { env: env(sb) });
    expect(r.exitCode).toBe(0);
    for (const kind of ['project', 'snippet', 'group'] as const) expect(idsOn(sb, kind, 'default')).toEqual([]);
    const summary = JSON.parse(r.stdout) as { complete: boolean; kinds: KindSummary[] };
    expect(summary.complete).toBe(true);
  });

  it('stops on Ctrl-C with exit 130 and the exact command that resumes, which then finishes the job', async () => {
    const sb = await sandbox({ projects: 100, moveMs: 30, moveConcurrency: 4 });
    const child = spawnSvc(
      ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', '--move-retries', '2', ...FAST],
      { env: env(sb) },
    );
    await waitUntil(() => sb.state.moves('project').some((m) => m.state === 'finished'));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    const stderr = String(result.stderr);
    const match = /Resume with: (svc storage-move wait .*)$/m.exec(stderr);
    expect(match?.[1]).toMatch(
      /^svc storage-move wait --from default --to storage2 --kind projects --move-retries 2 --interval 0\.05 --since \S+Z$/,
    );
    expect(idsOn(sb, 'project', 'default').length).toBeGreaterThan(0);
    const resumed = await svc([...match![1]!.split(' ').slice(1), '-o', 'json'], { env: env(sb) });
    expect(resumed.exitCode).toBe(0);
    const projects = (JSON.parse(resumed.stdout) as { kinds: KindSummary[] }).kinds[0] as KindSummary;
    // --since brings back the moves that finished before the interruption.
    expect(projects.total).toBe(100);
    expect(idsOn(sb, 'project', 'default')).toEqual([]);
  });
});
