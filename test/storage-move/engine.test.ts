import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { Deadline } from '../../src/workflows/shared/deadline.js';
import type { WorkflowHost } from '../../src/workflows/shared/host.js';
import { followMoves } from '../../src/workflows/storage-move/finish.js';
import { planSchedule, startSchedule } from '../../src/workflows/storage-move/schedule.js';
import { FakeClock } from './fake-clock.js';
import { startHangProxy } from './hang-proxy.js';
import { sandboxPerTest, waitUntil } from './helpers.js';

// The engine without any command: a fake clock, a host that records what it says, real HTTP.

const sandbox = sandboxPerTest();

function recordingHost(clock: FakeClock, signal: AbortSignal) {
  const said: string[] = [];
  const host: WorkflowHost = {
    clock,
    signal,
    interactive: false,
    info: (line) => said.push(line),
    warn: (line) => said.push(`warning: ${line}`),
    debug: () => {},
    status: async () => ({ update() {}, stop() {} }),
  };
  return { host, said };
}

describe('followMoves on a fake clock', () => {
  it('ends exactly at the deadline while a poll hangs, reporting the moves in flight and the resume command', async () => {
    const sb = await sandbox({ projects: 5, moveMs: 600_000 });
    let hanging = false;
    const proxy = await startHangProxy(
      sb.url,
      (req) => hanging && req.method === 'GET' && (req.url ?? '').includes('repository_storage_moves'),
    );
    const interrupt = new AbortController();
    const clock = new FakeClock();
    const { host, said } = recordingHost(clock, interrupt.signal);
    const http = new HttpClient({
      baseUrl: proxy.url,
      credentials: { token: sb.tokens.admin, type: 'private' },
      userAgent: 'svc-test',
      signal: interrupt.signal,
    });
    try {
      const request = { from: 'default', to: 'storage2', kind: ['project' as const], maxInFlight: 2 };
      const plan = await planSchedule(host, http, request, []);
      await startSchedule(host, http, plan, true);
      expect(plan.trackers[0]?.containers.size).toBe(5);
      const summary = followMoves(host, http, plan.trackers, {
        request: plan.request,
        settings: plan.settings,
        sinceIso: plan.sinceIso,
        startedAt: 0,
        singles: false,
        deadline: Deadline.after(clock, 10_000),
        plan: { intervalMs: plan.settings.intervalMs, maxInFlight: 2, rebuild: false },
      });
      // The first poll schedules two moves, then the watch sleeps until its next look.
      await waitUntil(() => (clock.nextWake ?? 10_000) < 10_000);
      hanging = true;
      await clock.advance((clock.nextWake as number) - clock.now());
      await waitUntil(() => proxy.hung() === 1);
      await clock.advance(10_000 - clock.now());
      const result = await summary;
      expect(clock.now()).toBe(10_000);
      expect(result).toMatchObject({ complete: false, timed_out: true, requests: { total: 3, polls: 1, max_per_poll: 2 } });
      expect(result.kinds[0]).toMatchObject({
        total: 5,
        finished: 0,
        cleanup_failed: 0,
        failed: 0,
        in_flight: 2,
        still_on_source: 3,
        duration_seconds: 10,
      });
      expect(said).toEqual([
        `timed out; the moves go on on the server. Resume with: svc storage-move wait --from default --to storage2 --kind projects --move-retries 3 --interval 5 --max-in-flight 2 --since ${plan.sinceIso}`,
      ]);
    } finally {
      interrupt.abort();
      await proxy.close();
    }
  });
});
