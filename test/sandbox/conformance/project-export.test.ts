// Project export: service-endpoints.md §8 (PEXP, PEXE), one test per fact.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Res } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('endpoints §8 project export while it runs', () => {
  const slow = useSandbox({ projects: 5, exportStepMs: 60_000 });
  it('is queued after the request, and its download is not available yet', async () => {
    expect((await slow.call('/projects/1/export', { method: 'POST', as: 'admin' })).status).toBe(202);
    expect((await slow.call('/projects/1/export', { as: 'admin' })).json.export_status).toBe('queued');
    const r = await slow.call('/projects/1/export/download', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: 'The project export file is not available yet' }]);
  });
});

describe('endpoints §8 project export', () => {
  it('reports export_status none before any export, without _links', async () => {
    const r = await c.call('/projects/5/export', { as: 'admin' });
    expect([r.status, r.json.export_status, '_links' in r.json]).toEqual([200, 'none', false]);
    expect(Object.keys(r.json)).toEqual([
      'id',
      'description',
      'name',
      'name_with_namespace',
      'path',
      'path_with_namespace',
      'created_at',
      'export_status',
    ]);
  });

  it('answers 404 Not found or has expired for a download before any export', async () => {
    const r = await c.call('/projects/5/export/download', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found or has expired' }]);
  });

  it('schedules with 202, advances queued → started → finished on its own, then shows _links and serves a tar.gz', async () => {
    const started = await c.call('/projects/5/export', { method: 'POST', as: 'admin', json: { description: 'backup' } });
    expect([started.status, started.json]).toEqual([202, { message: '202 Accepted' }]);
    const seen: string[] = [];
    let last: Res;
    do {
      last = await c.call('/projects/5/export', { as: 'admin' });
      if (seen[seen.length - 1] !== last.json.export_status) seen.push(last.json.export_status as string);
      await sleep(10);
    } while (last.json.export_status !== 'finished');
    expect(['queued,started,finished', 'started,finished', 'queued,finished', 'finished']).toContain(seen.join(','));
    expect(last.json._links).toEqual({
      api_url: `${c.sb.url}/api/v4/projects/5/export/download`,
      web_url: `${c.sb.url}/${c.sb.state.project(5)!.fullPath}/download_export`,
    });
    const file = await c.call('/projects/5/export/download', { as: 'admin' });
    expect(file.status).toBe(200);
    expect([...file.buf.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const tar = gunzipSync(file.buf);
    expect(tar.subarray(0, 7).toString('ascii')).toBe('VERSION');
    expect(tar.subarray(257, 262).toString('ascii')).toBe('ustar');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="\d{8}_\d{6}_.+_export\.tar\.gz"$/);
  });

  it('reports regeneration_in_progress while a new export runs, and still serves the last archive', async () => {
    expect((await c.call('/projects/5/export', { method: 'POST', as: 'admin' })).status).toBe(202);
    expect((await c.call('/projects/5/export', { as: 'admin' })).json.export_status).toBe('regeneration_in_progress');
    expect((await c.call('/projects/5/export/download', { as: 'admin' })).status).toBe(200);
  });

  it('ends failed (the sandbox fails an export described SANDBOX_EXPORT_FAIL), with nothing to download', async () => {
    await c.call('/projects/6/export', { method: 'POST', as: 'admin', json: { description: 'SANDBOX_EXPORT_FAIL' } });
    await sleep(210);
    expect((await c.call('/projects/6/export', { as: 'admin' })).json.export_status).toBe('failed');
    const r = await c.call('/projects/6/export/download', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found or has expired' }]);
  });

  it('is refused with 403 to a user who only reads the project', async () => {
    const outside = Array.from({ length: 30 }, (_, i) => c.sb.state.project(i + 1)!).find(
      (p) => p.visibility === 'public' && !p.fullPath.startsWith('acme/') && p.nsKind === 'group',
    )!;
    const r = await c.call(`/projects/${outside.id}/export`, { method: 'POST', as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('endpoints §8 project export rate limit', () => {
  const limited = useSandbox({ projects: 5 });
  it("answers 429 with the application limiter's body past six requests a minute from one user", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await limited.call('/projects/1/export', { method: 'POST', as: 'admin' })).status);
    const seventh = await limited.call('/projects/2/export', { method: 'POST', as: 'admin' });
    expect([statuses, seventh.status, seventh.json]).toEqual([
      [202, 202, 202, 202, 202, 202],
      429,
      { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
    ]);
  });
});
