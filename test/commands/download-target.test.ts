import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { spawnSvc, svc, tempDir } from '../support/harness.js';

const TOKEN = 'download-target-token-1234';
const ARCHIVE = Buffer.from('PK\u0003\u0004 the archive svc downloads, in two parts');
const OTHER = 'bytes another process wrote\n';
const env = (url: string) => ({ env: { SVC_URL: url, SVC_TOKEN: TOKEN }, secrets: [TOKEN] });

let server: Awaited<ReturnType<typeof startScriptedServer>>;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

/** Sends the archive's first bytes and holds the rest until the test releases it. */
function heldArchive(name: string) {
  let arrived = () => undefined as void;
  let release = () => undefined as void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const url = server.add(name, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(ARCHIVE.length) });
    res.write(ARCHIVE.subarray(0, 10));
    arrived();
    void released.then(() => res.end(ARCHIVE.subarray(10)));
  });
  return { url, arrival, release };
}

describe('a file created at the target while svc downloads is never replaced without --force (#22 item 6)', () => {
  it('jobs artifacts: exit 2, one line, the other file kept, nothing else left', async () => {
    const held = heldArchive('artifacts-held');
    const dir = tempDir();
    const target = join(dir, 'build.zip');
    const run = svc(['jobs', 'artifacts', '1', '7', '--out', target], env(held.url));
    await held.arrival;
    writeFileSync(target, OTHER);
    held.release();
    expect(await run).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: --out ${target} appeared while downloading and was left as it is; pass --force to replace it or --out another file\n`,
    });
    expect(readFileSync(target, 'utf8')).toBe(OTHER);
    expect(readdirSync(dir)).toEqual(['build.zip']);
  });

  it('jobs artifacts --force: the download replaces it', async () => {
    const held = heldArchive('artifacts-forced');
    const dir = tempDir();
    const target = join(dir, 'build.zip');
    const run = svc(['-q', 'jobs', 'artifacts', '1', '7', '--out', target, '--force'], env(held.url));
    await held.arrival;
    writeFileSync(target, OTHER);
    held.release();
    expect(await run).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readFileSync(target)).toEqual(ARCHIVE);
    expect(readdirSync(dir)).toEqual(['build.zip']);
  });

  it('projects export: a file created while the export is awaited is kept, exit 2', async () => {
    const dir = tempDir();
    const target = join(dir, 'backup.tar.gz');
    const url = server.add('export-wait', (req, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST') return json(202, { message: '202 Accepted' });
      if (path.endsWith('/export/download')) {
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(ARCHIVE.length) }).end(ARCHIVE);
        return;
      }
      // Another process takes the name while svc waits for the export.
      writeFileSync(target, OTHER);
      json(200, { id: 1, path_with_namespace: 'group/project-1', export_status: 'finished' });
    });
    const result = await svc(['projects', 'export', '1', '--out', target], env(url));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(-2)).toEqual([
      `svc: --out ${target} appeared while downloading and was left as it is; pass --force to replace it or --out another file`,
      '',
    ]);
    expect(readFileSync(target, 'utf8')).toBe(OTHER);
    expect(readdirSync(dir)).toEqual(['backup.tar.gz']);
  });
});

describe('svc killed outright mid-download leaves its partial file, which the next run removes (#22 item 6)', () => {
  it('kill -9 leaves .build.zip.svc-PID-1.part; the next run for build.zip removes it and saves the archive', async () => {
    const dir = tempDir();
    const target = join(dir, 'build.zip');
    const held = heldArchive('killed');
    const child = spawnSvc(['jobs', 'artifacts', '1', '7', '--out', target], env(held.url));
    const partial = `.build.zip.svc-${child.pid}-1.part`;
    await held.arrival;
    // The first bytes reached the partial file: svc is mid-download.
    await vi.waitFor(() => expect(statSync(join(dir, partial)).size).toBe(10), { timeout: 30_000, interval: 20 });
    child.kill('SIGKILL');
    expect((await child.catch((error: unknown) => error)) as { signal?: string }).toMatchObject({ signal: 'SIGKILL' });
    expect(readdirSync(dir)).toEqual([partial]);
    held.release();

    const whole = server.add('whole', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(ARCHIVE.length) }).end(ARCHIVE);
    });
    // A partial file of a run still going (pid 1 always runs) is not touched.
    writeFileSync(join(dir, '.build.zip.svc-1-1.part'), 'a live run is writing this');
    const next = await svc(['-q', 'jobs', 'artifacts', '1', '7', '--out', target], env(whole));
    expect(next).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readFileSync(target)).toEqual(ARCHIVE);
    expect(readdirSync(dir).sort()).toEqual(['.build.zip.svc-1-1.part', 'build.zip']);
  });
});
