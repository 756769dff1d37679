import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanupTempDirs, isolatedEnv, spawnSvc, svc, tempDir, type RunResult } from '../support/harness.js';

/**
 * A service whose archive answers at once, except the first request for a project in `held`: that
 * one is kept open (the test learns it arrived) until the process that sent it is killed.
 */
let server: Server;
let url: string;
let requests: string[] = [];
let held = new Set<string>();
let arrived: (id: string) => void = () => {};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const id = /^\/api\/v4\/projects\/(\d+)\/archive$/.exec(req.url ?? '')?.[1];
    requests.push(`${req.method} ${req.url}`);
    if (req.method === 'POST' && id !== undefined) {
      if (held.delete(id)) return arrived(id);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ id: Number(id), archived: true }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"404 Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  cleanupTempDirs();
});
beforeEach(() => {
  requests = [];
  held = new Set();
});

const env = () => ({ SVC_URL: url, SVC_TOKEN: 'glpat-bulk-journal-crash-0c4e1f' });
const args = (journal: string, ...extra: string[]) => [
  'bulk',
  '--max-in-flight',
  '1',
  '--journal',
  journal,
  ...extra,
  '--',
  'projects',
  'archive',
  '{id}',
  '--fields',
  'id',
];
const ok = (id: string) => `{"input":"${id}","ok":true,"exit_code":0,"error":null,"result":{"id":${id}}}\n`;
const unsure = (id: string) =>
  `{"input":"${id}","ok":false,"exit_code":null,"error":"not run: an earlier run started it and ended before it did, so it may have run; check it, then rerun with --retry-unsure","result":null}\n`;
const UNSURE_TAIL =
  'svc: 1 of 2 items not run: an earlier run started them and was stopped before they ended; check them, then rerun with --retry-unsure to run them again\n';

/** svc with files limited to `blocks` KiB (RLIMIT_FSIZE): a write past it fails with EFBIG, as on a full disk. */
async function svcWithFileLimit(blocks: number, argv: string[], input: string): Promise<RunResult> {
  const result = await execa('bash', ['-c', `ulimit -f ${blocks} && exec node "$@"`, 'bash', BIN, ...argv], {
    env: isolatedEnv({ env: env() }),
    extendEnv: false,
    reject: false,
    input,
    stripFinalNewline: false,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** A valid journal of exactly `bytes` bytes: one run, item 1 done, and a done filler item to make up the size. */
function journalOfSize(path: string, bytes: number): string {
  const head = '{"run":1}\n';
  const text = `${head}{"done":"${'x'.repeat(bytes - head.length - '{"done":""}\n'.length)}"}\n`;
  writeFileSync(path, text);
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

describe('svc bulk --journal across a kill -9 (#22 item 4)', () => {
  it('refuses a second run while one runs, and after a kill -9 does not redo the item that was in flight unless asked', async () => {
    const journal = join(tempDir(), 'run.journal');
    held.add('2');
    const inFlight = new Promise<string>((resolve) => (arrived = resolve));
    const child = spawnSvc(args(journal), { env: env(), input: '1\n2\n3\n' });
    // Should svc end before item 2's request arrives, the test fails at once with its stderr, not at its timeout.
    const endedFirst = child.then((r) => `svc ended (exit ${r.exitCode}) before item 2 was sent: ${String(r.stderr)}`);
    expect(await Promise.race([inFlight, endedFirst])).toBe('2');
    // The start of item 2 was on disk before its request was sent.
    expect(readFileSync(journal, 'utf8')).toBe('{"run":1}\n{"start":"1"}\n{"done":"1"}\n{"start":"2"}\n');

    const second = await svc(args(journal), { process: true, env: env(), input: '3\n' });
    expect(second).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `svc: --journal ${journal} is in use by another svc bulk run (pid ${child.pid}); wait for it to end, or delete ${journal}.lock if none is running\n`,
    });

    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    expect(String(killed.stdout)).toBe(ok('1'));
    expect(requests).toEqual(['POST /api/v4/projects/1/archive', 'POST /api/v4/projects/2/archive']);

    requests = [];
    const resumed = await svc(args(journal), { process: true, env: env(), input: '1\n2\n3\n' });
    expect(resumed).toEqual({
      exitCode: 8,
      stdout: unsure('2') + ok('3'),
      stderr: `bulk: 1 ok, 0 failed, 1 skipped (already in the journal), 1 unsure (not run)\nwarning: not run, it may have run already: 2\n${UNSURE_TAIL}`,
    });
    expect(requests).toEqual(['POST /api/v4/projects/3/archive']);

    requests = [];
    const retried = await svc(args(journal, '--retry-unsure'), { process: true, env: env(), input: '1\n2\n3\n' });
    expect(retried).toEqual({ exitCode: 0, stdout: ok('2'), stderr: 'bulk: 1 ok, 0 failed, 2 skipped (already in the journal)\n' });
    expect(requests).toEqual(['POST /api/v4/projects/2/archive']);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });
});

describe('svc bulk --journal on a full disk (#22 item 4)', () => {
  it('refuses before the first item when the journal cannot take the run’s first line, and leaves it as it was', async () => {
    const journal = join(tempDir(), 'full.journal');
    const before = journalOfSize(journal, 1024);
    const result = await svcWithFileLimit(1, args(journal), '1\n2\n');
    expect(result).toEqual({ exitCode: 1, stdout: '', stderr: `svc: --journal ${journal}: cannot write it (EFBIG); nothing was run\n` });
    expect(requests).toEqual([]);
    expect(readFileSync(journal, 'utf8')).toBe(before);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });

  it('when the journal fills up mid-run starts no new item, reports the one done but unrecorded, and a resume calls it unsure', async () => {
    const journal = join(tempDir(), 'full.journal');
    // Room for this run's first line and item 1's start, not for its end.
    const before = journalOfSize(journal, 2048 - '{"run":2}\n{"start":"1"}\n'.length - 5);
    const result = await svcWithFileLimit(2, args(journal), '1\n2\n');
    expect(result).toEqual({
      exitCode: 1,
      stdout: ok('1'),
      stderr:
        'bulk: 1 ok, 0 failed\n' +
        'warning: succeeded, but the journal could not record it (a resume calls it unsure): 1\n' +
        `svc: --journal ${journal}: cannot write it (EFBIG); no new item was started, every item that ran is on stdout\n`,
    });
    expect(requests).toEqual(['POST /api/v4/projects/1/archive']);
    // The end line the disk took only part of was cut back off.
    expect(readFileSync(journal, 'utf8')).toBe(`${before}{"run":2}\n{"start":"1"}\n`);

    requests = [];
    const resumed = await svc(args(journal), { process: true, env: env(), input: '1\n2\n' });
    expect(resumed).toEqual({
      exitCode: 8,
      stdout: unsure('1') + ok('2'),
      stderr: `bulk: 1 ok, 0 failed, 1 unsure (not run)\nwarning: not run, it may have run already: 1\n${UNSURE_TAIL}`,
    });
    expect(requests).toEqual(['POST /api/v4/projects/2/archive']);
  });
});
