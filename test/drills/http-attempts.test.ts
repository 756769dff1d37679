import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, outcome } from '../http/support.js';
import { startScriptedServer } from './scripted-server.js';

// Issue #10, cases 2, 3 and 11: one attempt is bounded as a whole, a body that breaks is a network
// failure retried like any other, and a signal ends a body that is still arriving.
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

describe('--timeout bounds a whole attempt, headers and body (case 2)', () => {
  it('a server dripping a byte every 200 ms fails at the timeout, retried, with one line', async () => {
    const base = server.add('drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = `[${'1,'.repeat(15)}1]`;
      let sent = 0;
      const timer = setInterval(() => {
        if (sent === body.length) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(body[sent++]);
      }, 200);
      res.on('close', () => clearInterval(timer));
    });
    const result = await outcome(() => client(base, { timeoutMs: 1000, retries: 1 }).request({ path: '/projects' }));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects failed: the response did not complete within the timeout (SVC_ATTEMPT_TIMEOUT)',
    });
    expect(server.hits('drip')).toBe(2);
  });
});

describe('a failure mid-body is a network failure (case 3)', () => {
  it('GET: a reset after the headers is retried and the second answer returned', async () => {
    const base = server.add('reset-get', (_req, res) => {
      if (server.hits('reset-get') === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('[{"id":1},');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1},{"id":2}]');
    });
    const result = await outcome(() => client(base, { retries: 2 }).request({ path: '/projects' }));
    expect(result).toEqual({
      ok: { status: 200, headers: expect.any(Object), data: [{ id: 1 }, { id: 2 }], url: `${base}/api/v4/projects` },
    });
    expect(server.hits('reset-get')).toBe(2);
  });

  it('DELETE and PUT are retried the same way', async () => {
    for (const method of ['DELETE', 'PUT']) {
      const name = `reset-${method.toLowerCase()}`;
      const base = server.add(name, (_req, res) => {
        if (server.hits(name) === 1) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '50' });
          res.write('{"id":');
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7}');
      });
      const result = await outcome(() => client(base, { retries: 1 }).record({ method, path: '/projects/7' }));
      expect(result, method).toEqual({ ok: { id: 7 } });
      expect(server.hits(name), method).toBe(2);
    }
  });

  it('a body shorter than its Content-Length, every time: retries used up, then one mapped line', async () => {
    const base = server.add('short', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '40' });
      res.write('[{"id":1}');
      setTimeout(() => res.socket?.end(), 20);
    });
    const result = await outcome(() => client(base, { retries: 2 }).request({ path: '/projects' }));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects failed: the server closed the connection (UND_ERR_SOCKET)',
    });
    expect(server.hits('short')).toBe(3);
  });

  it('POST is not repeated after a reset mid-body: the server may have acted', async () => {
    const base = server.add('reset-post', (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '50' });
      res.write('{"id":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const result = await outcome(() => client(base, { retries: 3 }).request({ method: 'POST', path: '/projects', json: { name: 'x' } }));
    expect(result).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'POST /projects failed: the server closed the connection (UND_ERR_SOCKET)',
    });
    expect(server.hits('reset-post')).toBe(1);
  });
});

describe('a signal while a body arrives (case 11)', () => {
  it('ends the request at once with InterruptedError (exit 130), the rest of a long page never sent', async () => {
    const controller = new AbortController();
    let written = 0;
    let closed!: Promise<unknown>;
    let firstChunkSent!: () => void;
    const firstChunk = new Promise<void>((resolve) => {
      firstChunkSent = resolve;
    });
    const base = server.add('signal', (_req, res) => {
      closed = once(res, 'close');
      // Chunked, as a page of unknown size (a declared 100 MB would be refused before reading).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[', () => firstChunkSent());
      written = 1;
      const timer = setInterval(() => {
        res.write('0,');
        written += 2;
      }, 50);
      res.on('close', () => clearInterval(timer));
    });
    const pending = outcome(() =>
      client(base, { signal: controller.signal, retries: 3, timeoutMs: 60_000 }).request({ path: '/projects' }),
    );
    await firstChunk;
    // Long enough for the headers to reach the client: the signal lands while the body arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    expect(await pending).toEqual({ exitCode: 130, name: 'InterruptedError', message: 'interrupted' });
    await closed;
    expect(written).toBeLessThan(1024);
    expect(server.hits('signal')).toBe(1);
  });
});

describe('a signal while a streamed download arrives (case 11)', () => {
  it('ends the stream the caller reads with InterruptedError (exit 130)', async () => {
    const controller = new AbortController();
    let closed!: Promise<unknown>;
    const base = server.add('signal-stream', (_req, res) => {
      closed = once(res, 'close');
      res.writeHead(200, { 'content-type': 'application/zip' });
      const timer = setInterval(() => res.write(Buffer.alloc(1024)), 20);
      res.on('close', () => clearInterval(timer));
    });
    const http = client(base, { signal: controller.signal });
    const res = await http.request<Readable>({ path: '/projects/1/jobs/2/artifacts', responseType: 'stream' });
    const result = await outcome(async () => {
      for await (const chunk of res.data) {
        if ((chunk as Buffer).length) controller.abort();
      }
    });
    expect(result).toEqual({ exitCode: 130, name: 'InterruptedError', message: 'interrupted' });
    await closed;
  });
});
