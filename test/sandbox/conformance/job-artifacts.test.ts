// Artifacts by ref and single files: service-endpoints.md §4 (Artifacts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });

/** One file of the job's archive as unzip reads it from the bytes the object store serves. */
async function fromArchive(job: number, path: string): Promise<Buffer> {
  const archive = await fetch(`${c.sb.url}/api/v4/projects/2/jobs/${job}/artifacts`, { headers: { 'PRIVATE-TOKEN': c.sb.tokens.admin } });
  const dir = mkdtempSync(join(tmpdir(), 'svc-zip-'));
  try {
    writeFileSync(join(dir, 'a.zip'), Buffer.from(await archive.arrayBuffer()));
    return execFileSync('unzip', ['-p', join(dir, 'a.zip'), path]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('§4 artifacts by ref: GET …/jobs/artifacts/:ref_name/download?job=', () => {
  it('redirects (302) to the archive of the latest successful job of that name on the ref', async () => {
    const r = await c.call('/projects/2/jobs/artifacts/main/download?job=build', { as: 'user' });
    expect(r.status).toBe(302);
    expect(r.headers.location).toMatch(new RegExp(`/sandbox-artifacts/2/11/artifacts\\.zip\\?X-Amz-Expires=300&`));
  });

  it('without job: 400 {"error":"job is missing"}', async () => {
    const r = await c.call('/projects/2/jobs/artifacts/main/download', { as: 'user' });
    expect([r.status, r.json]).toEqual([400, { error: 'job is missing' }]);
  });

  it('no successful job of that name on the ref: 404 {"message":"404 Not found"}', async () => {
    const r = await c.call('/projects/2/jobs/artifacts/develop/download?job=build', { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('the job exists but has no archive: 404 {"message":"404 Not Found"}', async () => {
    const r = await c.call('/projects/2/jobs/artifacts/main/download?job=test', { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not Found' }]);
  });

  it('a job token of the project is accepted', async () => {
    const r = await req(c.sb.url, '/api/v4/projects/2/jobs/artifacts/main/download?job=build', {
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
    });
    expect(r.status).toBe(302);
  });
});

describe('§4 one file: GET …/jobs/:job_id/artifacts/*artifact_path and …/jobs/artifacts/:ref_name/raw/*artifact_path?job=', () => {
  it('answers the file as it is inside the archive, as an attachment with its length and a strong ETag', async () => {
    const r = await c.call('/projects/2/jobs/7/artifacts/build/output.bin', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.buf.equals(await fromArchive(7, 'build/output.bin'))).toBe(true);
    expect([r.headers['content-type'], r.headers['content-disposition'], r.headers['content-length']]).toEqual([
      'application/octet-stream',
      'attachment; filename="output.bin"',
      String(r.buf.length),
    ]);
    expect(r.headers.etag).toBe(`"${createHash('sha1').update(r.buf).digest('hex')}"`);
  });

  it('by ref and job name, with a job token: the same file of the latest successful job', async () => {
    const r = await req(c.sb.url, '/api/v4/projects/2/jobs/artifacts/main/raw/build/report.txt?job=build', {
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
    });
    expect(r.status).toBe(200);
    expect(r.buf.equals(await fromArchive(11, 'build/report.txt'))).toBe(true);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('a path that climbs out (..): 400 {"message":"400 Bad request"}', async () => {
    const r = await c.call('/projects/2/jobs/7/artifacts/build/%2E%2E/secret', { as: 'user' });
    expect([r.status, r.json]).toEqual([400, { message: '400 Bad request' }]);
  });

  it('a file not in the archive: 404 {"message":"404 Not Found"}; an unknown job: 404 {"message":"404 Not found"}', async () => {
    const missing = await c.call('/projects/2/jobs/7/artifacts/build/nope.txt', { as: 'user' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Not Found' }]);
    const job = await c.call('/projects/2/jobs/999/artifacts/build/report.txt', { as: 'user' });
    expect([job.status, job.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('a deep path (a report tree of 16 levels) is looked up like any other: 404 {"message":"404 Not Found"}, not a missing route', async () => {
    const deep = Array.from({ length: 15 }, (_, i) => `d${i}`).join('/');
    const r = await c.call(`/projects/2/jobs/7/artifacts/${deep}/index.html`, { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not Found' }]);
    const byRef = await c.call(`/projects/2/jobs/artifacts/main/raw/${deep}/index.html?job=build`, { as: 'user' });
    expect([byRef.status, byRef.json]).toEqual([404, { message: '404 Not Found' }]);
  });
});
