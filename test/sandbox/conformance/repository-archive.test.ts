// `GET /projects/:id/repository/archive[.format]`: service-endpoints.md §7 "Archive" (formats, `sha`, failure
// `404 File Not Found`); lib/api/repositories.rb `send_git_archive … append_sha: true`, app/models/repository.rb
// `archive_metadata` (the `<project path>-<ref with / as ->-<sha>` folder and file name), Workhorse's
// `setArchiveHeaders` (Content-Disposition, application/zip or application/octet-stream, no Content-Length).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 2 });

async function download(path: string): Promise<Response> {
  return fetch(`${c.sb.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': c.sb.tokens.admin } });
}

describe('§7 repository archive', () => {
  it('a tar.gz that tar reads: one folder named after project, ref and sha, the ref’s files inside, streamed', async () => {
    const sha = (await c.call('/projects/2/repository/commits/develop', { as: 'admin' })).json.id as string;
    const res = await download('/projects/2/repository/archive?sha=develop');
    const folder = `${c.sb.state.project(2)!.path}-develop-${sha}`;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${folder}.tar.gz"`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe(null);
    const dir = mkdtempSync(join(tmpdir(), 'svc-archive-'));
    try {
      writeFileSync(join(dir, 'a.tar.gz'), Buffer.from(await res.arrayBuffer()));
      execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
      const listed = execFileSync('tar', ['-tzf', 'a.tar.gz'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
      expect(listed).toContain(`${folder}/`);
      expect(listed).toContain(`${folder}/docs/c++/notes+tips.md`);
      const readme = (await c.call('/projects/2/repository/files/README.md?ref=develop', { as: 'admin' })).json.content as string;
      expect(readFileSync(join(dir, folder, 'README.md'))).toEqual(Buffer.from(readme, 'base64'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.zip answers application/zip; an unknown ref is 404 File Not Found', async () => {
    const zip = await download('/projects/2/repository/archive.zip');
    expect([zip.status, zip.headers.get('content-type')]).toEqual([200, 'application/zip']);
    expect(Buffer.from(await zip.arrayBuffer()).readUInt32LE(0)).toBe(0x04034b50);
    const missing = await c.call('/projects/2/repository/archive.tar?sha=nope', { as: 'admin' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 File Not Found' }]);
  });
});
