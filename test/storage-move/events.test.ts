// storage-move schedule --wait --events: one storage_move line per state a move is seen in, then the
// result line with the summary document. Moves run on the sandbox's own timers, so which intermediate
// states a poll catches varies; every move's last line is its final state, and the result comes last.
import { describe, expect, it } from 'vitest';
import { svc } from '../support/harness.js';
import { env, FAST, SCHEDULE_PROJECTS, sandboxPerTest } from './helpers.js';

const sandbox = sandboxPerTest();

describe('storage-move schedule --wait --events', () => {
  it('NDJSON: each move to its final state, then the result with the summary; exit 0', async () => {
    const sb = await sandbox({ projects: 6, moveMs: 5 });
    const now = () => Date.parse('2030-01-02T03:04:05.000Z');
    const r = await svc([...SCHEDULE_PROJECTS, '--wait', '--events', ...FAST], { env: env(sb), now });
    expect(r.exitCode).toBe(0);
    const events = r.stdout
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line));
    const result = events.pop();
    expect(result).toMatchObject({ type: 'result', exit_code: 0, record: { complete: true } });
    expect(Object.keys(result)).toEqual(['type', 'exit_code', 'record']);
    expect(new Set(events.map((e) => Object.keys(e).join(',')))).toEqual(new Set(['type,id,status,kind,container_id,at']));
    expect(events.every((e) => e.type === 'storage_move' && e.kind === 'project' && e.at === '2030-01-02T03:04:05.000Z')).toBe(true);
    const lastState = new Map<number, string>();
    for (const e of events) lastState.set(e.container_id, e.status);
    expect([...lastState.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...lastState.values()].every((state) => state === 'finished')).toBe(true);
    // a state is written once per move: no two lines alike
    expect(new Set(events.map((e) => `${e.id} ${e.status}`)).size).toBe(events.length);
  });

  it('--events without --wait is a usage error', async () => {
    const sb = await sandbox({ projects: 2, moveMs: 5 });
    const r = await svc([...SCHEDULE_PROJECTS, '--events'], { env: env(sb) });
    expect([r.exitCode, r.stderr]).toEqual([2, 'svc: --events only applies with --wait\n']);
  });
});
