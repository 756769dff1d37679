import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { spawnSvc, tempDir } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const slow = useSandbox({ projects: 5, exportStepMs: 60_000 });

async function download(project: number): Promise<Buffer> {
  const res = await fetch(`${suite.sandbox.url}/api/v4/projects/${project}/export/download`, {
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('projects export', () => {
  it('schedules the export, follows it to finished and saves the archive', async () => {
    const dir = tempDir();
    const out = join(dir, 'api.tar.gz');
    const result = await suite.run(['projects', 'export', '3', '--out', out, '--interval', '0.05', '-o', 'json']);
    const bytes = await download(3);
    expect([result.exitCode, JSON.parse(result.stdout)]).toEqual([0, { file: out, size: bytes.length, project_id: 3 }]);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('export of project 3 scheduled (202 Accepted: scheduled for processing, not finished yet)');
    expect(lines[lines.length - 1]).toBe(`saved ${out} (${bytes.length} B)`);
    const statuses = lines.slice(1, -1).map((l) => l.replace('export of project 3: ', ''));
    expect(['queued,started,finished', 'queued,finished', 'started,finished', 'finished']).toContain(statuses.join(','));
    expect(readdirSync(dir)).toEqual(['api.tar.gz']);
    const requests = suite.requests().map((r) => `${r.method} ${r.rawPath}`);
    expect(requests[0]).toBe('POST /api/v4/projects/3/export');
    expect(requests[requests.length - 1]).toBe('GET /api/v4/projects/3/export/download');
  });

  it('prints nothing on stdout without -o: the file is the data, as with jobs artifacts', async () => {
    const out = join(tempDir(), 'quiet.tar.gz');
    const result = await suite.run(['projects', 'export', '5', '--out', out, '--interval', '0.05']);
    const bytes = await download(5);
    expect([result.exitCode, result.stdout, result.stderr.trim().split('\n').pop()]).toEqual([0, '', `saved ${out} (${bytes.length} B)`]);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const tsv = await suite.run(['projects', 'export', '5', '--out', out, '--force', '--interval', '0.05', '-o', 'tsv']);
    // A new export is a new archive (its time inside may differ): the record names the file now on disk.
    expect([tsv.exitCode, tsv.stdout]).toEqual([0, `file\tsize\n${out}\t${readFileSync(out).length}\n`]);
    expect(readFileSync(out).equals(await download(5))).toBe(true);
  });

  it('refuses to overwrite a file without --force, before any request (exit 2), and replaces it with --force', async () => {
    const dir = tempDir();
    const out = join(dir, 'kept.tar.gz');
    writeFileSync(out, 'keep me');
    const refused = await suite.run(['projects', 'export', '3', '--out', out]);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: --out ${out} already exists; pass --force to replace it or --out another file\n`,
    });
    expect(suite.requests()).toEqual([]);
    const replaced = await suite.run(['-q', 'projects', 'export', '3', '--out', out, '--force', '--interval', '0.05']);
    expect(replaced.exitCode).toBe(0);
    expect(readFileSync(out).equals(await download(3))).toBe(true);
  });

  it('refuses an --out in a directory that does not exist before any request (exit 2), as jobs artifacts does', async () => {
    const result = await suite.run(['projects', 'export', '3', '--out', '/nonexistent/dir/x.tgz', '--interval', '0.05']);
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: cannot write in /nonexistent/dir: no such file\n' });
    expect(suite.requests()).toEqual([]);
  });

  it('exits 8 and writes nothing when the export fails on the server', async () => {
    const dir = tempDir();
    const out = join(dir, 'failed.tar.gz');
    const result = await suite.run(['projects', 'export', '4', '--out', out, '--description', 'SANDBOX_EXPORT_FAIL', '--interval', '0.05']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n').pop()).toBe('svc: export of project 4 failed on the server; nothing was written');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exits 8 when the export is not finished within --wait-timeout, writing nothing', async () => {
    const dir = tempDir();
    const out = join(dir, 'late.tar.gz');
    const result = await slow.run(['projects', 'export', '1', '--out', out, '--interval', '0.05', '--wait-timeout', '0.3']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/\nsvc: export of project 1 still queued after 0\.\d s; nothing was written\n$/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('Ctrl-C during the wait exits 130 and removes the file it had made ready beside the target', async () => {
    const dir = tempDir();
    const out = join(dir, 'stopped.tar.gz');
    const child = spawnSvc(['projects', 'export', '2', '--out', out, '--interval', '0.05'], { env: sandboxEnv(slow.sandbox) });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await vi.waitFor(() => expect(stderr).toContain('export of project 2: queued'), { timeout: 30_000, interval: 20 });
    expect(readdirSync(dir)).toEqual([`.stopped.tar.gz.svc-${child.pid}-1.part`]);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the role when the service refuses (exit 4), and reports an unknown project (exit 5)', async () => {
    const outside = Array.from({ length: 10 }, (_, i) => suite.sandbox.state.project(i + 1)!).find(
      (p) => p.visibility === 'public' && !p.fullPath.startsWith('acme/') && p.nsKind === 'group',
    )!;
    const dir = tempDir();
    const denied = await suite.run(['projects', 'export', String(outside.id), '--out', join(dir, 'x.tar.gz')], {
      token: suite.sandbox.tokens.user,
    });
    expect(denied).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: `svc: POST /projects/${outside.id}/export failed: 403 Forbidden (this needs the maintainer role or administrator access)\n`,
    });
    const unknown = await suite.run(['projects', 'export', '9999', '--out', join(dir, 'x.tar.gz')]);
    expect(unknown).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: POST /projects/9999/export failed: 404 Project Not Found\n' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
