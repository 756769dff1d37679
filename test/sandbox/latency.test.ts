// Issue #16 item 1: a sandbox that answers like a deployment with latency and a bounded worker pool.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { req } from './helpers.js';

const api = (p: string) => `/api/v4${p}`;

describe('latency', () => {
  it('delays every API answer by a fixed latency and counts it in the stats', async () => {
    const sb = await startSandbox({ projects: 3, latencyMs: 30 });
    try {
      for (let i = 0; i < 4; i++) expect((await req(sb.url, api('/projects/1'))).status).toBe(200);
      expect(sb.stats().latency).toEqual({ minMs: 30, maxMs: 30, delayed: 4, totalDelayMs: 120 });
    } finally {
      await sb.close();
    }
  });

  it('draws a MIN-MAX latency from the seed: the same seed gives the same delays, each within the range', async () => {
    const totals: number[] = [];
    for (let run = 0; run < 2; run++) {
      const sb = await startSandbox({ projects: 3, latencyMs: [5, 25], seed: 9 });
      try {
        for (let i = 0; i < 6; i++) await req(sb.url, api('/projects/1'));
        const l = sb.stats().latency;
        expect(l.delayed).toBe(6);
        expect(l.totalDelayMs).toBeGreaterThanOrEqual(6 * 5);
        expect(l.totalDelayMs).toBeLessThanOrEqual(6 * 25);
        totals.push(l.totalDelayMs);
      } finally {
        await sb.close();
      }
    }
    expect(totals[0]).toBe(totals[1]);
  });

  it('does not hold other requests while one waits: all are in progress at once', async () => {
    const sb = await startSandbox({ projects: 3, latencyMs: 150 });
    try {
      const answers = await Promise.all([1, 2, 3, 1, 2].map((id) => req(sb.url, api(`/projects/${id}`), { token: sb.tokens.admin })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(sb.stats().concurrency).toEqual({ limit: 0, maxActive: 5, queued: 0, maxQueued: 0 });
    } finally {
      await sb.close();
    }
  });
});

describe('max concurrency', () => {
  it('queues requests beyond N workers in order, and counts them in the stats', async () => {
    // Each answer takes a second, so the six requests (sent at once) all arrive while the first two
    // are still being answered, however loaded the machine: 40 ms was not always enough.
    const sb = await startSandbox({ projects: 3, latencyMs: 1000, maxConcurrency: 2 });
    try {
      const answers = await Promise.all([1, 2, 3, 1, 2, 3].map((id) => req(sb.url, api(`/projects/${id}`), { token: sb.tokens.admin })));
      expect(answers.map((a) => a.json.id)).toEqual([1, 2, 3, 1, 2, 3]);
      expect(sb.stats().concurrency).toEqual({ limit: 2, maxActive: 2, queued: 4, maxQueued: 4 });
    } finally {
      await sb.close();
    }
  });
});

describe('svc sandbox flags', () => {
  const svc = (args: string[]) => execa(process.execPath, ['bin/svc.js', 'sandbox', ...args], { reject: false, timeout: 240_000 });

  it('refuses a --latency-ms range with MIN above MAX with exit 2', async () => {
    const r = await svc(['--latency-ms', '50-10']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('svc: --latency-ms range MIN-MAX must have MIN at most MAX');
  });

  it('refuses a --max-concurrency of 0 with exit 2', async () => {
    const r = await svc(['--max-concurrency', '0']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "svc: error: option '--max-concurrency <n>' argument '0' is invalid. --max-concurrency must be between 1 and 100000",
    );
  });
});
