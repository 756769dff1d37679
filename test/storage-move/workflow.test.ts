import { describe, expect, it } from 'vitest';
import type { StorageMove } from '../../src/api/storage-moves.js';
import { FINAL_STATES } from '../../src/api/storage-moves.js';
import { summarizeKind } from '../../src/workflows/storage-move/finish.js';
import { formatProgressLine } from '../../src/workflows/storage-move/progress.js';
import { resumeCommand } from '../../src/workflows/storage-move/settings.js';
import {
  describeOutcome,
  formatDuration,
  formatSummaryDocument,
  SUMMARY_COLUMNS,
  summaryRecords,
  type MoveSummary,
} from '../../src/workflows/storage-move/summary.js';
import { KindTracker } from '../../src/workflows/storage-move/tracker.js';
import { endsPerMs, nextPollDelay } from '../../src/workflows/storage-move/watch.js';

function summary(overrides: Partial<MoveSummary> = {}): MoveSummary {
  return {
    from: 'default',
    to: 'storage2',
    complete: false,
    timed_out: false,
    requests: { total: 40, polls: 9, max_per_poll: 3 },
    kinds: [
      {
        kind: 'projects',
        total: 10000,
        finished: 9990,
        cleanup_failed: 4,
        failed: 2,
        in_flight: 1,
        still_on_source: 3,
        retries: 31,
        scheduled_singly: 5,
        duration_seconds: 3723.4,
        not_moved: [7, 12],
        cleanup_failed_ids: [1, 2, 3, 4],
      },
      {
        kind: 'snippets',
        total: 3,
        finished: 3,
        cleanup_failed: 0,
        failed: 0,
        in_flight: 0,
        still_on_source: 0,
        retries: 0,
        scheduled_singly: 0,
        duration_seconds: 12.25,
        not_moved: [],
        cleanup_failed_ids: [],
      },
    ],
    ...overrides,
  };
}

describe('summary records', () => {
  it('gives one table row per kind, with the duration as people read it', () => {
    const rows = summaryRecords(summary(), 'tsv');
    expect(rows.map((r) => SUMMARY_COLUMNS.map((c) => r[c]))).toEqual([
      ['projects', 10000, 9990, 4, 2, 1, 3, 31, '1h02m03s'],
      ['snippets', 3, 3, 0, 0, 0, 0, 0, '12.3s'],
    ]);
  });

  it('writes one JSON document with the ids of what did not move, and --fields choosing the figures of each kind', () => {
    const doc = JSON.parse(formatSummaryDocument(summary(), undefined));
    expect(doc.kinds[0]).toMatchObject({ kind: 'projects', not_moved: [7, 12], cleanup_failed_ids: [1, 2, 3, 4] });
    expect(doc).toMatchObject({ from: 'default', to: 'storage2', complete: false, requests: { polls: 9 } });
    const picked = JSON.parse(formatSummaryDocument(summary(), ['kind', 'duration']));
    expect(picked.kinds).toEqual([
      { kind: 'projects', duration: '1h02m03s' },
      { kind: 'snippets', duration: '12.3s' },
    ]);
    expect(picked).toMatchObject({ complete: false, timed_out: false });
  });

  it('gives ndjson one record per kind with its storages', () => {
    expect(summaryRecords(summary(), 'ndjson').map((r) => [r.from, r.to, r.kind])).toEqual([
      ['default', 'storage2', 'projects'],
      ['default', 'storage2', 'snippets'],
    ]);
  });

  it('says what is left in one line', () => {
    expect(describeOutcome(summary(), false)).toBe('incomplete: projects: 2 not moved (7, 12)');
    expect(describeOutcome(summary({ timed_out: true }), false)).toBe('incomplete: timed out; projects: 2 not moved (7, 12)');
    expect(describeOutcome(summary({ complete: true }), false)).toBe('every repository moved from default to storage2');
    expect(describeOutcome(summary({ complete: true }), true)).toBe('every named repository moved from default to storage2');
    const many = summary();
    (many.kinds[0] as { not_moved: number[] }).not_moved = Array.from({ length: 13 }, (_, i) => i + 1);
    expect(describeOutcome(many, false)).toBe('incomplete: projects: 13 not moved (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … 3 more)');
  });

  it('formats durations', () => {
    expect(formatDuration(0.04)).toBe('0.0s');
    expect(formatDuration(59.9)).toBe('59.9s');
    expect(formatDuration(61)).toBe('1m01s');
    expect(formatDuration(7322)).toBe('2h02m02s');
  });
});

describe('formatProgressLine', () => {
  it('shows finished of total and only the parts that are not zero', () => {
    expect(formatProgressLine('projects', { total: 10000, finished: 8412, running: 37, waiting: 0, retrying: 2, failed: 0 })).toBe(
      'projects 8,412/10,000 finished · 37 started · 2 failed, retrying',
    );
    expect(formatProgressLine('groups', { total: 6, finished: 6, running: 0, waiting: 0, retrying: 0, failed: 0 })).toBe(
      'groups 6/6 finished',
    );
    expect(formatProgressLine('snippets', { total: 3, finished: 0, running: 0, waiting: 2, retrying: 0, failed: 1 })).toBe(
      'snippets 0/3 finished · 2 waiting · 1 failed',
    );
  });
});

describe('resumeCommand', () => {
  it('repeats --from/--to/--kind/--move-retries/--interval and adds --since', () => {
    const flags = { from: 'default', to: 'storage 2', kind: ['project' as const] };
    expect(resumeCommand(flags, { moveRetries: 2, intervalMs: 500 }, '2024-05-01T10:00:00.000Z')).toBe(
      "svc storage-move wait --from default --to 'storage 2' --kind projects --move-retries 2 --interval 0.5 --since 2024-05-01T10:00:00.000Z",
    );
    const all = { from: 'a', to: 'b', kind: ['project' as const, 'snippet' as const, 'group' as const], maxInFlight: 4 };
    expect(resumeCommand(all, { moveRetries: 3, intervalMs: 5000 }, undefined)).toBe(
      'svc storage-move wait --from a --to b --kind all --move-retries 3 --interval 5 --max-in-flight 4',
    );
  });
});

describe('nextPollDelay', () => {
  const rolling = { intervalMs: 5000, maxInFlight: 20 };
  const look = (previousMs: number, refilled: boolean, endsPerMs?: number) => ({ previousMs, busy: true, refilled, endsPerMs });
  it('before any move ended, looks again soon after scheduling one and backs off to the interval', () => {
    expect(nextPollDelay(rolling, look(5000, true))).toBe(20);
    expect(nextPollDelay(rolling, look(20, false))).toBe(40);
    expect(nextPollDelay(rolling, look(4000, false))).toBe(5000);
  });
  it('then looks when a quarter of the slots should have freed, at most every 5 ms and at least every interval', () => {
    // 20 slots: a look per 5 ends; at 0.1 ends per ms that is every 50 ms.
    expect(nextPollDelay(rolling, look(20, false, 0.1))).toBe(50);
    expect(nextPollDelay(rolling, look(20, true, 0.01))).toBe(500);
    expect(nextPollDelay(rolling, look(20, true, 10))).toBe(5);
    expect(nextPollDelay(rolling, look(20, true, 0.000_1))).toBe(5000);
    expect(nextPollDelay({ intervalMs: 5000, maxInFlight: 2 }, look(20, false, 0.01))).toBe(100);
  });
  it('keeps the interval when no move runs or waits, and in bulk mode', () => {
    expect(nextPollDelay(rolling, { ...look(20, true, 0.1), busy: false })).toBe(5000);
    expect(nextPollDelay({ intervalMs: 5000, maxInFlight: Number.POSITIVE_INFINITY }, look(20, true, 0.1))).toBe(5000);
  });
});

describe('endsPerMs', () => {
  it('is the moves this run saw end per ms since its first POST, counting each move once', () => {
    const t = tracker({ bulk: false });
    expect(endsPerMs([t], 50)).toBeUndefined();
    t.scheduled(t.containers.get(1)!, move(11, 1, 'scheduled'), 100);
    t.scheduled(t.containers.get(2)!, move(12, 2, 'scheduled'), 150);
    t.observe(move(11, 1, 'started'), 300);
    expect(endsPerMs([t], 300)).toBeUndefined();
    t.observe(move(11, 1, 'finished'), 460);
    expect(endsPerMs([t], 500)).toBe(1 / 400);
    t.observe(move(12, 2, 'failed'), 480);
    t.observe(move(12, 2, 'failed'), 900);
    expect(endsPerMs([t], 900)).toBe(2 / 800);
  });
});

function move(id: number, container: number, state: StorageMove['state'], source = 'a', destination = 'b'): StorageMove {
  return {
    id,
    created_at: new Date(1_000_000 + id).toISOString(),
    state,
    source_storage_name: source,
    destination_storage_name: destination,
    project: { id: container },
  };
}

function tracker(overrides: Partial<ConstructorParameters<typeof KindTracker>[1]> = {}): KindTracker {
  const t = new KindTracker(
    'project',
    { source: 'a', destination: 'b', maxRetries: 2, listed: true, growFromMoves: true, baselineMoveId: 10, bulk: true, ...overrides },
    0,
  );
  for (const id of [1, 2, 3, 4]) t.expect({ id, label: `p${id}` });
  return t;
}

/** The watch can always make progress: no container is left without a queue entry, a live move, a read to do or an outcome. */
function expectNoneStuck(t: KindTracker): void {
  for (const c of t.containers.values()) {
    const live = c.move !== undefined && !FINAL_STATES.has(c.move.state);
    const awaitingBulk = t.options.bulk && c.move === undefined;
    const phases = [c.outcome !== undefined, c.queued !== undefined, Boolean(c.readStorage), live || awaitingBulk].filter(Boolean);
    expect(phases, `container ${c.id}`).toHaveLength(1);
  }
}

function evaluated(t: KindTracker, now = 0): KindTracker {
  t.evaluate(now, 1000);
  expectNoneStuck(t);
  return t;
}

describe('KindTracker', () => {
  it('follows a move from before the run that a single POST ran into, then reads where the repository is', () => {
    const t = evaluated(tracker({ bulk: false }));
    const [c1, c2, c3] = [1, 2, 3].map((id) => t.containers.get(id)!);
    t.scheduled(c1, move(5, 1, 'started'), 0);
    t.scheduled(c2, move(6, 2, 'scheduled', 'b', 'b'), 0);
    t.scheduled(c3, move(7, 3, 'failed'), 0);
    evaluated(t);
    expect(c1.move).toMatchObject({ id: 5, adopted: true });
    expect(t.unfinishedMoveIds().sort()).toEqual([5, 6]);
    expect(t.observe(move(5, 1, 'finished'), 0)).toBe(true);
    t.observe(move(6, 2, 'finished', 'b', 'b'), 0);
    evaluated(t);
    expect([c1, c2, c3].map((c) => c.readStorage)).toEqual([true, true, true]);
    expect(t.located(c1, 'b')).toBe('destination');
    expect(t.located(c2, undefined)).toBe('destination');
    expect(t.located(c3, 'a')).toBe('source');
    expect(c3.queued).toBe('initial');
    expect(t.retriesUsed(c3)).toBe(0);
    expect(t.located(t.containers.get(4)!, 'c')).toBe('elsewhere');
    evaluated(t);
    expect([c1.outcome, c2.outcome, c3.outcome, t.containers.get(4)?.outcome]).toEqual(['finished', 'finished', undefined, 'failed']);
  });

  it('queues again a container without a move when not in bulk mode', () => {
    const t = tracker({ bulk: false });
    const c = t.containers.get(1)!;
    c.queued = undefined;
    evaluated(t);
    expect(c.queued).toBe('initial');
  });

  it('ignores moves that a newer move in another direction undid, and adopts one that had landed before the listing', () => {
    const t = tracker({ baselineMoveId: undefined, listingMoveId: 40 });
    t.observe(move(32, 1, 'finished', 'b', 'a'), 0);
    t.observe(move(31, 1, 'finished'), 0);
    t.observe(move(30, 1, 'failed'), 0);
    expect(t.containers.get(1)?.move).toBeUndefined();
    expect(t.containers.get(1)?.failedMoveIds.size).toBe(0);
    t.observe(move(33, 2, 'finished'), 0);
    t.observe(move(41, 3, 'finished'), 0);
    evaluated(t);
    expect(t.containers.get(2)?.readStorage).toBe(true);
    expect(t.containers.get(2)?.outcome).toBeUndefined();
    expect(t.containers.get(3)?.outcome).toBe('finished');
  });

  it('ignores moves from before the run and moves in another direction', () => {
    const t = tracker();
    expect(t.observe(move(9, 1, 'scheduled'), 0)).toBe(false);
    expect(t.observe(move(11, 1, 'scheduled', 'b', 'a'), 0)).toBe(false);
    expect(t.observe(move(12, 1, 'started'), 0)).toBe(true);
    expect(t.containers.get(1)?.move).toMatchObject({ id: 12, state: 'started' });
  });

  it('retries a failed move up to maxRetries, then settles it as failed', () => {
    const t = tracker();
    t.observe(move(11, 1, 'failed'), 0);
    t.evaluate(0, 1000);
    expect(t.containers.get(1)?.queued).toBe('retry');
    t.scheduled(t.containers.get(1)!, move(20, 1, 'scheduled'), 0);
    t.observe(move(20, 1, 'failed'), 0);
    t.evaluate(0, 1000);
    t.scheduled(t.containers.get(1)!, move(21, 1, 'scheduled'), 0);
    t.observe(move(21, 1, 'failed'), 0);
    t.evaluate(0, 1000);
    const c = t.containers.get(1)!;
    expect(c.outcome).toBe('failed');
    expect(t.retriesUsed(c)).toBe(2);
  });

  it('counts cleanup failed as moved and reports it once', () => {
    const t = tracker();
    t.observe(move(11, 2, 'cleanup failed'), 0);
    expect(t.evaluate(0, 1000).cleanupFailed.map((c) => c.id)).toEqual([2]);
    expect(t.evaluate(0, 1000).cleanupFailed).toEqual([]);
    expect(t.containers.get(2)?.outcome).toBe('cleanup failed');
  });

  it('schedules singly a container the bulk job passed in an earlier poll, or never reached within the grace', () => {
    const t = tracker();
    t.observe(move(11, 3, 'scheduled'), 0);
    t.evaluate(0, 1000);
    expect(t.containers.get(1)?.queued).toBeUndefined();
    t.evaluate(10, 1000);
    expect(t.containers.get(1)?.queued).toBe('missing');
    expect(t.containers.get(2)?.queued).toBe('missing');
    expect(t.containers.get(4)?.queued).toBeUndefined();
    t.evaluate(2000, 1000);
    expect(t.containers.get(4)?.queued).toBe('missing');
  });

  it('never lets more than maxInFlight moves run', () => {
    const t = tracker({ bulk: false });
    expect(t.nextToSchedule(2).map((c) => c.id)).toEqual([1, 2]);
    t.scheduled(t.containers.get(1)!, move(11, 1, 'scheduled'), 0);
    t.scheduled(t.containers.get(2)!, move(12, 2, 'started'), 0);
    expect(t.nextToSchedule(2)).toEqual([]);
    t.observe(move(11, 1, 'finished'), 0);
    expect(t.nextToSchedule(2).map((c) => c.id)).toEqual([3]);
  });

  it('rebuilds the retries used from the failed moves it reads back', () => {
    const t = tracker({ baselineMoveId: undefined, sinceMs: 0 });
    t.observe(move(30, 1, 'finished'), 0);
    t.observe(move(20, 1, 'failed'), 0);
    t.observe(move(15, 1, 'failed'), 0);
    expect(t.retriesUsed(t.containers.get(1)!)).toBe(2);
    expect(t.containers.get(1)?.move?.id).toBe(30);
  });

  it('grows an unlisted set from moves to the destination only, keeping each container at its newest move', () => {
    const t = new KindTracker(
      'project',
      { source: 'a', destination: 'b', maxRetries: 1, listed: false, growFromMoves: true, bulk: true },
      0,
    );
    t.observe(move(5, 7, 'finished', 'b', 'a'), 0);
    t.observe(move(4, 7, 'finished'), 0);
    t.observe(move(3, 8, 'finished', 'a', 'c'), 0);
    t.observe(move(2, 9, 'started'), 0);
    expect([...t.containers.keys()]).toEqual([9]);
    expect(t.done(0, 1000)).toBe(false);
  });

  it('leaves out of a watch with no boundary what had landed before it, and counts only the newest failure as its own', () => {
    const unlisted = new KindTracker(
      'project',
      { source: 'a', destination: 'b', maxRetries: 3, listed: false, growFromMoves: true, bulk: true },
      0,
    );
    // The first look pages newest first through an earlier run: container 7 landed, 8 is still moving, 9 failed twice.
    for (const m of [
      move(40, 7, 'finished'),
      move(39, 8, 'started'),
      move(38, 9, 'failed'),
      move(35, 7, 'failed'),
      move(31, 9, 'failed'),
    ]) {
      unlisted.observe(m, 0, true);
    }
    expect([...unlisted.containers.keys()].sort()).toEqual([8, 9]);
    expect(unlisted.foundLandedHistory()).toBe(true);
    const nine = unlisted.containers.get(9)!;
    expect([...nine.failedMoveIds]).toEqual([38]);
    expect(unlisted.retriesUsed(nine)).toBe(0);
    // A move of container 7 created during the watch joins it after all.
    unlisted.observe(move(41, 7, 'scheduled'), 0);
    expect(unlisted.containers.get(7)?.move?.id).toBe(41);

    const listed = tracker({ baselineMoveId: undefined });
    listed.observe(move(30, 1, 'failed'), 0, true);
    listed.observe(move(20, 1, 'failed'), 0, true);
    expect(listed.retriesUsed(listed.containers.get(1)!)).toBe(0);
    evaluated(listed);
    expect(listed.containers.get(1)?.queued).toBe('retry');
  });
});

describe('summarizeKind', () => {
  it('puts every container in one column, so the columns add up to total, a move in flight included', () => {
    const t = tracker({ bulk: false });
    for (const id of [5, 6]) t.expect({ id, label: `p${id}` });
    t.scheduled(t.containers.get(1)!, move(11, 1, 'finished'), 0);
    t.scheduled(t.containers.get(2)!, move(12, 2, 'cleanup failed'), 0);
    t.scheduled(t.containers.get(3)!, move(13, 3, 'started'), 0);
    t.containers.get(1)!.outcome = 'finished';
    t.containers.get(2)!.outcome = 'cleanup failed';
    t.settleFailed(t.containers.get(4)!);
    t.containers.get(6)!.outcome = 'finished';
    const columns = (s: ReturnType<typeof summarizeKind>) => [
      s.total,
      s.finished,
      s.cleanup_failed,
      s.failed,
      s.in_flight,
      s.still_on_source,
    ];
    const timedOut = summarizeKind(t, undefined, 1);
    expect(columns(timedOut)).toEqual([6, 2, 1, 1, 1, 1]);
    expect(timedOut.not_moved).toEqual([3, 4, 5]);
    // The fresh listing finds 6 back on the source, and 9, which the run never saw.
    const verified = summarizeKind(t, new Set([5, 6, 9]), 1);
    expect(columns(verified)).toEqual([7, 1, 1, 1, 1, 3]);
    expect(verified.not_moved).toEqual([3, 4, 5, 6, 9]);
  });
});
