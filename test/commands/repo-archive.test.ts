import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/commands/shared/progress.js';
import { zipEntries } from '../../src/sandbox/resources/job-artifacts.js';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

/** The regular files of a ustar archive, by name (the pax global header and directories left out). */
function tarFiles(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const field = (start: number, length: number) => tar.toString('utf8', at + start, at + start + length).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12), 8);
    const prefix = field(345, 155);
    if (field(156, 1) === '0') files.set(`${prefix ? `${prefix}/` : ''}${field(0, 100)}`, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

// `svc repo archive` over the sandbox, which answers as repositories.rb and Workhorse do
// (test/sandbox/conformance/repository-archive.test.ts).
describe('svc repo archive', () => {
  const suite = useSandbox({ projects: 3 });
  const api = async (path: string) =>
    (await fetch(`${suite.sandbox.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin } })).json() as Promise<
      Record<string, unknown> & Array<Record<string, unknown>>
    >;
  /** Every file of a ref as the files API serves it, by path. */
  const filesOf = async (ref: string) => {
    const tree = await api(`/projects/1/repository/tree?ref=${encodeURIComponent(ref)}&recursive=true&per_page=100`);
    const out = new Map<string, Buffer>();
    for (const e of tree.filter((x) => x.type === 'blob')) {
      const raw = await fetch(
        `${suite.sandbox.url}/api/v4/projects/1/repository/files/${encodeURIComponent(String(e.path))}/raw?ref=${encodeURIComponent(ref)}`,
        { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin } },
      );
      out.set(String(e.path), Buffer.from(await raw.arrayBuffer()));
    }
    return out;
  };
  const project = () => suite.sandbox.state.project(1)!;

  it('saves the default branch as a tar.gz whose files are the branch’s, under the folder the service names', async () => {
    const dir = tempDir();
    const target = join(dir, 'src.tar.gz');
    const result = await suite.run(['repo', 'archive', '1', '--out', target]);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual(['/api/v4/projects/1/repository/archive.tar.gz?']);
    const sha = (await api('/projects/1/repository/commits/main')).id as string;
    const name = `${project().path}-main-${sha}.tar.gz`;
    const bytes = readFileSync(target);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: `saved ${target} (${formatBytes(bytes.length)}): ${name}\n` });
    const expected = new Map([...(await filesOf('main'))].map(([path, content]) => [`${project().path}-main-${sha}/${path}`, content]));
    expect(tarFiles(gunzipSync(bytes))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['src.tar.gz']);
  });

  it('saves a branch as a zip, prints the record with -o json, and refuses to replace a file without --force', async () => {
    const dir = tempDir();
    const target = join(dir, 'login.zip');
    writeFileSync(target, 'keep me');
    const refused = await suite.run(['repo', 'archive', '1', '--ref', 'feature/login', '--format', 'zip', '--out', target]);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: --out ${target} already exists; pass --force to replace it or --out another file\n`,
    });
    expect(suite.requests()).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    const saved = await suite.run([
      'repo',
      'archive',
      '1',
      '--ref',
      'feature/login',
      '--format',
      'zip',
      '--out',
      target,
      '--force',
      '-o',
      'json',
    ]);
    expect(saved.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      '/api/v4/projects/1/repository/archive.zip?sha=feature%2Flogin',
    ]);
    const sha = (await api('/projects/1/repository/commits/feature%2Flogin')).id as string;
    const folder = `${project().path}-feature-login-${sha}`;
    const bytes = readFileSync(target);
    expect(JSON.parse(saved.stdout)).toEqual({ file: target, size: bytes.length, name: `${folder}.zip` });
    const files = new Map([...zipEntries(bytes)].filter(([name]) => !name.endsWith('/')));
    expect(files).toEqual(new Map([...(await filesOf('feature/login'))].map(([path, content]) => [`${folder}/${path}`, content])));
    expect(files.has(`${folder}/src/app/login.ts`)).toBe(true);
  });

  it('an unknown ref exits 5 and leaves nothing behind', async () => {
    const dir = tempDir();
    const target = join(dir, 'none.tar.gz');
    const result = await suite.run(['repo', 'archive', '1', '--ref', 'no-such-ref', '--out', target]);
    expect(result).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: GET /projects/1/repository/archive.tar.gz failed: 404 File Not Found\n',
    });
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('tar.bz2 exits 5 in the sandbox, which has no bzip2 encoder, as its README and help say', async () => {
    const dir = tempDir();
    const result = await suite.run(['repo', 'archive', '1', '--format', 'tar.bz2', '--out', join(dir, 'a.tar.bz2')]);
    expect(result).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: GET /projects/1/repository/archive.tar.bz2 failed: 404 File Not Found\n',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});
