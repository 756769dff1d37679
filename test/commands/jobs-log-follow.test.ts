import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { spawnSvc, svc } from '../support/harness.js';
import { LogFilter } from '../../src/workflows/pipelines/log-filter.js';

const ESC = '\u001b';
const TOKEN = 'plain-token-0123456789';
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

const LOG = `section_start:1:build\r${ESC}[0K${ESC}[32;1mbuilding${ESC}[0;m\nstep 1 é\nsection_end:1:build\r${ESC}[0Kdone`;
const PLAIN = 'building\nstep 1 é\ndone';

function running(res: ServerResponse, status = 'running'): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 5, status }));
}

/** A job whose trace is `body` sent with `encoding`, and whose status is success. */
function encodedJob(name: string, encoding: string, body: Buffer): Record<string, string> {
  const url = server.add(name, (req, res) => {
    if (!req.url?.endsWith('/trace')) return running(res, 'success');
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding }).end(body);
  });
  return { SVC_URL: url, SVC_TOKEN: TOKEN };
}

describe('a compressed trace', () => {
  const encodings: Array<[string, Buffer]> = [
    ['gzip', gzipSync(LOG)],
    ['deflate', deflateSync(LOG)],
    ['br', brotliCompressSync(LOG)],
  ];

  it('is decoded when streamed, read whole for --tail, and followed', async () => {
    for (const [encoding, body] of encodings) {
      const env = encodedJob(`enc-${encoding}`, encoding, body);
      const streamed = await svc(['jobs', 'log', '1', '5'], { env });
      expect([streamed.exitCode, streamed.stdout, streamed.stderr]).toEqual([0, PLAIN, '']);
      const raw = await svc(['jobs', 'log', '1', '5', '--raw'], { env });
      expect(raw.stdout).toBe(LOG);
      const tail = await svc(['jobs', 'log', '1', '5', '--tail', '1'], { env });
      expect([tail.exitCode, tail.stdout]).toEqual([0, 'done']);
      const followed = await svc(['jobs', 'log', '1', '5', '--follow'], { env });
      expect([followed.exitCode, followed.stdout, followed.stderr]).toEqual([0, PLAIN, 'job 5 succeeded\n']);
    }
  });

  it('that does not decode, decodes to more than can be held, or is in an encoding svc lacks, fails with one line (exit 1)', async () => {
    const broken = encodedJob('broken-gzip', 'gzip', Buffer.from('not gzip at all'));
    for (const args of [[], ['--tail', '1']]) {
      const r = await svc(['jobs', 'log', '1', '5', ...args], { env: broken });
      expect([r.exitCode, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe('svc: GET /projects/1/jobs/5/trace: the compressed log could not be decoded (incorrect header check)\n');
    }
    const bomb = encodedJob('bomb', 'gzip', gzipSync(Buffer.alloc(64 * 1024 * 1024 + 1)));
    const held = await svc(['jobs', 'log', '1', '5', '--tail', '1'], { env: bomb });
    expect([held.exitCode, held.stdout]).toEqual([1, '']);
    expect(held.stderr).toBe(
      'svc: GET /projects/1/jobs/5/trace: the compressed log decodes to more than 64 MiB, the limit for one answer held in memory\n',
    );
    const zstd = await svc(['jobs', 'log', '1', '5'], { env: encodedJob('zstd', 'zstd', Buffer.from('x')) });
    expect([zstd.exitCode, zstd.stdout]).toEqual([1, '']);
    expect(zstd.stderr).toBe('svc: GET /projects/1/jobs/5/trace: the log came with Content-Encoding zstd, which svc cannot decode\n');
  });
});

describe('jobs log --follow on a log rewritten in place', () => {
  it('warns once, finishes the line it was in, and prints the new log from its start', async () => {
    const reads = ['line 1\npartial', 'LINE 1\npartial and more\n', 'LINE 1\npartial and more\nline 3\n'];
    let traces = 0;
    const url = server.add('rewritten', (req, res) => {
      if (!req.url?.endsWith('/trace')) return running(res, traces === reads.length - 1 ? 'success' : 'running');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(reads[traces++]);
    });
    const r = await svc(['jobs', 'log', '1', '5', '--follow', '--interval', '0.01'], { env: { SVC_URL: url, SVC_TOKEN: TOKEN } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('line 1\npartial\nLINE 1\npartial and more\nline 3\n');
    expect(r.stderr).toBe(
      'warning: the log on the server was rewritten: its first 14 bytes are no longer what was printed; printing it again from its start\n' +
        'job 5 succeeded\n',
    );
  });

  it('ends a partial line before the new start, whatever the mode', () => {
    for (const mode of ['raw', 'plain', 'terminal'] as const) {
      const filter = new LogFilter(mode);
      const first = filter.push(Buffer.from('a\nb'));
      const ended = filter.restart();
      expect(Buffer.concat([first, ended]).toString()).toBe('a\nb\n');
      expect(filter.restart().toString()).toBe('');
    }
  });
});

describe('jobs log --follow --wait-timeout', () => {
  it('stops waiting for a job that keeps running (exit 8), what was read printed', async () => {
    // --tail prints the log before the wait starts, so the output does not depend on how fast the reads are.
    const url = server.add('endless', (req, res) => {
      if (!req.url?.endsWith('/trace')) return running(res);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('step 1\n');
    });
    const r = await svc(['jobs', 'log', '1', '5', '--tail', '5', '--follow', '--interval', '0.05', '--wait-timeout', '0.3'], {
      env: { SVC_URL: url, SVC_TOKEN: TOKEN },
    });
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('step 1\n');
    expect(r.stderr).toBe('svc: job 5 did not end within --wait-timeout 0.3 s; it keeps running on the server\n');
  });

  it('bounds a read that never answers', async () => {
    const url = server.add('hanging', (req, res) => {
      if (!req.url?.endsWith('/trace')) return running(res);
      // The trace never comes.
    });
    const child = spawnSvc(['jobs', 'log', '1', '5', '--follow', '--wait-timeout', '0.3'], { env: { SVC_URL: url, SVC_TOKEN: TOKEN } });
    const r = await child;
    expect(r.exitCode).toBe(8);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toBe('svc: job 5 did not end within --wait-timeout 0.3 s; it keeps running on the server\n');
  });

  it('applies only with --follow (exit 2)', async () => {
    const r = await svc(['jobs', 'log', '1', '5', '--wait-timeout', '5'], { env: { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: TOKEN } });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, '', 'svc: --wait-timeout applies only with --follow\n']);
  });
});
