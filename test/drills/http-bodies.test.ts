import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/types.js';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { allItems, client, outcome, TOKEN } from '../http/support.js';
import { startScriptedServer } from './scripted-server.js';

// Issue #10, cases 14 and 16: hostile bodies cost bounded memory, and every malformed answer
// ends in one mapped line.
const MiB = 1024 * 1024;
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

/** Streams `total` bytes of a JSON array in 64 KiB chunks, honouring back-pressure; resolves how far it got. */
function streamArray(
  res: ServerResponse,
  total: number,
  headers: Record<string, string> = {},
): Promise<{ sent: number; finished: boolean }> {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.from('0,'.repeat(32 * 1024));
  let sent = 0;
  return new Promise((resolve) => {
    res.on('close', () => resolve({ sent, finished: res.writableFinished }));
    const pump = () => {
      while (sent + chunk.length < total) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('0]');
    };
    res.write('[');
    pump();
  });
}

describe('bounded memory on hostile bodies (case 14)', () => {
  it('the default cap is 64 MiB, and a body declaring more is refused before reading it', async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(64 * MiB);
    const base = server.add('declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(65 * MiB) });
      res.write('[');
    });
    expect(await outcome(() => client(base, { retries: 2 }).request({ path: '/projects' }))).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned more than 64 MiB, the limit for one answer held in memory',
    });
    expect(server.hits('declared')).toBe(1);
    const cli = await svc(['api', 'projects'], { env: { SVC_URL: base, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });
    expect(cli).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'svc: GET /projects returned more than 64 MiB, the limit for one answer held in memory\n',
    });
  });

  it('a chunked body is cut off as soon as it passes maxBodyBytes, for JSON and text alike', async () => {
    for (const responseType of ['json', 'text'] as const) {
      const name = `chunked-${responseType}`;
      let progress!: Promise<{ sent: number; finished: boolean }>;
      const base = server.add(name, (_req, res) => {
        progress = streamArray(res, 32 * MiB);
      });
      expect(await outcome(() => client(base, { maxBodyBytes: MiB }).request({ path: '/projects', responseType }))).toEqual({
        exitCode: 1,
        name: 'SvcError',
        message: 'GET /projects returned more than 1 MiB, the limit for one answer held in memory',
      });
      const { sent, finished } = await progress;
      expect(finished, responseType).toBe(false);
      expect(sent, responseType).toBeLessThan(16 * MiB);
    }
  });

  it('a listing page past the cap stops the listing with the same line', async () => {
    const base = server.add('big-page', (_req, res) => void streamArray(res, 4 * MiB));
    expect(await outcome(() => allItems(client(base, { maxBodyBytes: MiB }).pages('/projects')))).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned more than 1 MiB, the limit for one answer held in memory',
    });
  });

  it('a streamed download is not bounded by the cap: every byte arrives', async () => {
    let progress!: Promise<{ sent: number; finished: boolean }>;
    const base = server.add('download', (_req, res) => {
      progress = streamArray(res, 3 * MiB, { 'content-type': 'application/zip' });
    });
    const res = await client(base, { maxBodyBytes: MiB }).request<Readable>({
      path: '/projects/1/jobs/2/artifacts',
      responseType: 'stream',
    });
    let bytes = 0;
    for await (const chunk of res.data) bytes += (chunk as Buffer).length;
    const { sent, finished } = await progress;
    expect(finished).toBe(true);
    expect(sent).toBeGreaterThan(2 * MiB);
    expect(bytes).toBe(1 + sent + 2);
  });
});

describe('every malformed answer is mapped (case 16)', () => {
  it('an invalid URL in Link ends the listing with one line (exit 1)', async () => {
    const base = server.add('bad-link', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', link: '<http://[::1/api/v4/projects?page=2>; rel="next"' })
        .end('[{"id":1}]');
    });
    expect(await outcome(() => allItems(client(base).pages('/projects')))).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: "GET /projects: the server's next-page link is not a valid URL",
    });
  });

  it('an invalid URL in Location ends the request with one line (exit 1)', async () => {
    const base = server.add('bad-location', (_req, res) => res.writeHead(302, { location: 'http://[::1/api/v4/x' }).end());
    expect(await outcome(() => client(base).request({ path: '/projects' }))).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects failed: redirected (302) to a Location that is not a valid http(s) URL',
    });
  });

  it('JSON nested 100,000 deep is refused with one line, as a success body or inside an error body', async () => {
    const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deepObject = `{"message":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const base = server.add('deep', (req, res) => {
      if (req.url?.endsWith('/fail')) return res.writeHead(400, { 'content-type': 'application/json' }).end(deepObject);
      res.writeHead(200, { 'content-type': 'application/json' }).end(deepArray);
    });
    expect(await outcome(() => client(base).request({ path: '/projects' }))).toEqual({
      exitCode: 1,
      name: 'SvcError',
      message: 'GET /projects returned JSON nested deeper than 512 levels',
    });
    expect(await outcome(() => client(base).request({ path: '/projects/fail' }))).toEqual({
      exitCode: 6,
      name: 'ApiError',
      message: `GET /projects/fail failed: 400 Bad Request: ${deepObject.slice(0, 200)}…`,
    });
  });

  describe('a 204 that carries a body anyway', () => {
    let raw: Server;
    let base: string;
    beforeAll(async () => {
      // node:http cannot send a body with a 204, so this server writes the bytes itself.
      raw = createServer((socket) => {
        socket.on('data', () =>
          socket.write('HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"gone":1}\n'),
        );
      });
      raw.listen(0, '127.0.0.1');
      await once(raw, 'listening');
      base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => raw.close(() => resolve())));

    it('svc exits 0 on it', async () => {
      const cli = await svc(['api', '-X', 'DELETE', 'projects/1/share/5'], { env: { SVC_URL: base, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });
      expect(cli).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    });

    it('is a success without a body for every response type', async () => {
      const http = client(base);
      const answers = [];
      for (const responseType of ['json', 'none', 'text', 'buffer'] as const) {
        const res = await http.request({ method: 'DELETE', path: '/projects/1/share/5', responseType });
        answers.push([res.status, res.data]);
      }
      expect(answers).toEqual([
        [204, undefined],
        [204, undefined],
        [204, ''],
        [204, Buffer.alloc(0)],
      ]);
    });
  });
});
