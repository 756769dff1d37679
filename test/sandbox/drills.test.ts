import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultSpec, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { serveSandbox } from '../../src/commands/sandbox/index.js';
import { svc } from '../support/harness.js';
import { req, waitFor } from './helpers.js';

const api = (p: string) => `/api/v4${p}`;

function capture() {
  const s = new PassThrough();
  let text = '';
  s.on('data', (c: Buffer) => (text += c.toString()));
  return {
    stream: s,
    get text() {
      return text;
    },
  };
}

describe('parseFaultSpec', () => {
  it('parses a full spec', () => {
    expect(parseFaultSpec('429=0.05,503=0.02,500=0.01,502=0.01,reset=0.01,slow=0.02')).toEqual({
      '429': 0.05,
      '503': 0.02,
      '500': 0.01,
      '502': 0.01,
      reset: 0.01,
      slow: 0.02,
    });
    expect(parseFaultSpec('')).toEqual({});
  });

  it('rejects unknown kinds, bad rates, duplicates and sums over 1 with clear messages', () => {
    expect(() => parseFaultSpec('404=0.1')).toThrow(/invalid fault kind '404'/);
    expect(() => parseFaultSpec('503=abc')).toThrow(/invalid rate 'abc'/);
    expect(() => parseFaultSpec('503=1.5')).toThrow(/between 0 and 1/);
    expect(() => parseFaultSpec('503')).toThrow(/expected KIND=RATE/);
    expect(() => parseFaultSpec('503=0.1,503=0.2')).toThrow(/given twice/);
    expect(() => parseFaultSpec('503=0.6,500=0.6')).toThrow(/more than 1/);
  });
});

describe('faults', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ projects: 5, faults: '429=0.1,500=0.1,502=0.1,503=0.1,reset=0.1,slow=0.1', slowMs: 5, faultSeed: 3 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('injects every kind with its status and body, and counts them in stats', async () => {
    const seen: Record<string, number> = {};
    const bodies: Record<string, { text: string; type: string; headers: Record<string, string> }> = {};
    for (let i = 0; i < 150; i++) {
      try {
        const r = await req(sb.url, api('/projects/1'));
        const k = String(r.status);
        seen[k] = (seen[k] ?? 0) + 1;
        bodies[k] = { text: r.text, type: r.headers['content-type'] ?? '', headers: r.headers };
      } catch {
        seen.reset = (seen.reset ?? 0) + 1;
      }
    }
    const f = sb.stats().faults;
    expect(seen['429']).toBe(f['429']);
    expect(seen['500']).toBe(f['500']);
    expect(seen['502']).toBe(f['502']);
    expect(seen['503']).toBe(f['503']);
    expect(seen.reset).toBe(f.reset);
    expect(f.slow).toBeGreaterThan(0);
    expect(seen['200']).toBeGreaterThan(50);
    expect(bodies['429']!.text).toBe('Retry later');
    expect(bodies['429']!.headers['retry-after']).toBe('1');
    expect(bodies['429']!.headers['ratelimit-name']).toBe('throttle_authenticated_api');
    expect(JSON.parse(bodies['500']!.text)).toEqual({ message: '500 Internal Server Error' });
    expect(bodies['502']!.type).toMatch(/^text\/html/);
    expect(bodies['502']!.text).toContain('502 Bad Gateway');
    expect(bodies['503']!.text).toContain('503 Service Temporarily Unavailable');
  });

  it('never injects faults on /-/sandbox/stats', async () => {
    for (let i = 0; i < 40; i++) {
      const r = await req(sb.url, '/-/sandbox/stats');
      expect(r.status).toBe(200);
    }
  });

  it('draws the same fault sequence for the same fault seed', async () => {
    const run = async () => {
      const s = await startSandbox({ projects: 2, faults: '500=0.3,503=0.3', faultSeed: 11 });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await req(s.url, api('/projects/1'))).status);
      await s.close();
      return out;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
  });
});

describe('rate limiting', () => {
  it('answers 429 Retry later with RateLimit headers once the per-minute limit is used up', async () => {
    const sb = await startSandbox({ projects: 2, rateLimit: 5 });
    try {
      const first = await req(sb.url, api('/projects/1'), { token: sb.tokens.user });
      expect(first.headers['ratelimit-name']).toBe('throttle_authenticated_api');
      expect(first.headers['ratelimit-limit']).toBe('5');
      expect(first.headers['ratelimit-observed']).toBe('1');
      expect(first.headers['ratelimit-remaining']).toBe('4');
      expect(first.headers).not.toHaveProperty('retry-after');
      let limited: Awaited<ReturnType<typeof req>> | null = null;
      for (let i = 0; i < 12 && !limited; i++) {
        const r = await req(sb.url, api('/projects/1'), { token: sb.tokens.user });
        if (r.status === 429) limited = r;
      }
      expect(limited).not.toBeNull();
      expect(limited!.text).toBe('Retry later');
      expect(limited!.headers['content-type']).toMatch(/^text\/plain/);
      for (const h of [
        'ratelimit-name',
        'ratelimit-limit',
        'ratelimit-observed',
        'ratelimit-remaining',
        'ratelimit-reset',
        'ratelimit-resettime',
        'retry-after',
      ]) {
        expect(limited!.headers).toHaveProperty(h);
      }
      expect(limited!.headers['ratelimit-remaining']).toBe('0');
      expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited!.headers['retry-after'])).toBeLessThanOrEqual(60);
      // another token has its own budget
      const other = await req(sb.url, api('/projects/1'), { token: sb.tokens.admin });
      expect(other.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('determinism', () => {
  it('gives identical data for the same seed and sizes, different data for another seed', async () => {
    const page = async (seed: number) => {
      const s = await startSandbox({ projects: 40, seed });
      const texts = [];
      for (const p of [
        '/projects?per_page=100',
        '/users?per_page=100',
        '/groups?per_page=100',
        '/projects/3/issues/1/notes',
        '/projects/3/branches/main/commits',
      ]) {
        const r = await req(s.url, api(p), { token: s.tokens.admin });
        texts.push(r.text.split(s.url).join('BASE').split(new URL(s.url).host).join('HOST'));
      }
      const tokens = JSON.stringify(s.tokens);
      await s.close();
      return { data: texts.join('\n'), tokens };
    };
    const a = await page(7);
    const b = await page(7);
    const c = await page(8);
    expect(a.data).toEqual(b.data);
    expect(a.data).not.toEqual(c.data);
  });
});

describe('serveSandbox', () => {
  it('prints exactly one JSON line once listening and exits 0 when aborted', async () => {
    const out = capture();
    const err = capture();
    const ac = new AbortController();
    const done = serveSandbox({ port: 0, projects: 3, output: 'json' }, { stdout: out.stream, stderr: err.stream, signal: ac.signal });
    const line = await waitFor(() => (out.text.endsWith('\n') ? out.text : null), 240_000);
    const lines = line!.trim().split('\n');
    expect(lines).toHaveLength(1);
    const info = JSON.parse(lines[0]!);
    expect(Object.keys(info)).toEqual(['url', 'tokens']);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await req(info.url, api('/user'), { token: info.tokens.admin });
    expect(r.json.username).toBe('root');
    ac.abort();
    await done;
    expect(err.text).toBe('');
    await expect(req(info.url, api('/projects/1'))).rejects.toThrow();
  });

  it('prints the human block with an export line', async () => {
    const out = capture();
    const ac = new AbortController();
    const done = serveSandbox(
      { port: 0, projects: 1, output: 'text' },
      { stdout: out.stream, stderr: capture().stream, signal: ac.signal },
    );
    await waitFor(() => out.text.includes('Ctrl-C'), 240_000);
    expect(out.text).toMatch(/^export SVC_URL=http:\/\/127\.0\.0\.1:\d+ SVC_TOKEN=\S+$/m);
    // Every credential line puts its value in the same column, whatever its label's length.
    const credentialLines = out.text.split('\n').filter((l) => /^ {2}\S.*: +\S+$/.test(l));
    expect(credentialLines.map((l) => l.split(': ')[0])).toContain('  CI job token (job 7)');
    expect(credentialLines).toHaveLength(8);
    expect(new Set(credentialLines.map((l) => l.search(/\S+$/))).size).toBe(1);
    ac.abort();
    await done;
  });

  it('reports a port in use on one stderr line and exits 1', async () => {
    const busy = await startSandbox({ projects: 1 });
    try {
      const port = Number(new URL(busy.url).port);
      const result = await svc(['sandbox', '--port', String(port), '-o', 'json']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `svc: sandbox: cannot listen on 127.0.0.1:${port}: address already in use (choose another --port, or --port 0 for a free one)\n`,
      );
    } finally {
      await busy.close();
    }
  });

  it('refuses a non-loopback host, bad numbers and a bad fault spec with exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['--host', '0.0.0.0'],
        "svc: sandbox: refusing to listen on '0.0.0.0': the sandbox only listens on loopback (127.0.0.0/8, ::1, localhost)",
      ],
      [
        ['--host', '192.168.1.5'],
        "svc: sandbox: refusing to listen on '192.168.1.5': the sandbox only listens on loopback (127.0.0.0/8, ::1, localhost)",
      ],
      [['--port', '70000'], "svc: error: option '--port <n>' argument '70000' is invalid. --port must be between 0 and 65535"],
      [['--projects', '-1'], "svc: error: option '--projects <n>' argument '-1' is invalid. --projects must be between 0 and 1000000"],
      [['--move-failure-rate', '2'], 'svc: --move-failure-rate must be a number from 0 to 1'],
      [['--faults', 'boom=1'], "svc: sandbox: invalid fault kind 'boom': expected one of 429, 500, 502, 503, reset, slow"],
    ];
    for (const [args, line] of cases) {
      const result = await svc(['sandbox', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${line}\n`);
    }
  });
});

describe('scale', () => {
  it('starts with 100,000 projects and serves deep pages (timings logged, not asserted)', async () => {
    const t0 = performance.now();
    const sb = await startSandbox({ projects: 100_000 });
    const startMs = performance.now() - t0;
    try {
      const t1 = performance.now();
      const r = await req(sb.url, api('/projects?per_page=100&page=500'), { token: sb.tokens.admin });
      const pageMs = performance.now() - t1;
      expect(r.status).toBe(200);
      expect(r.json).toHaveLength(100);
      expect(r.json[0].id).toBe(100_000 - 49_900);
      const k = await req(sb.url, api('/projects?pagination=keyset&order_by=id&sort=asc&id_after=99950&per_page=100'), {
        token: sb.tokens.admin,
      });
      expect(k.json).toHaveLength(50);
      expect(k.json.at(-1).id).toBe(100_000);
      const t2 = performance.now();
      const firstByName = await req(sb.url, api('/projects?order_by=name&sort=asc&per_page=100&page=400'), { token: sb.tokens.admin });
      const buildMs = performance.now() - t2;
      const t3 = performance.now();
      const byName = await req(sb.url, api('/projects?order_by=name&sort=asc&per_page=100&page=401'), { token: sb.tokens.admin });
      const nameMs = performance.now() - t3;
      expect(firstByName.json).toHaveLength(100);
      const names = [...firstByName.json, ...byName.json].map((p: { name: string }) => p.name.toLowerCase());
      expect(names).toEqual([...names].sort());
      console.log(
        `sandbox 100k: start ${startMs.toFixed(0)} ms, rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB, page 500 round trip ${pageMs.toFixed(1)} ms, ` +
          `order_by=name first page ${buildMs.toFixed(1)} ms (builds the index), next page ${nameMs.toFixed(1)} ms`,
      );
    } finally {
      await sb.close();
    }
  });
});
