// Deleting pipelines, one by one or after a listing by age: service-endpoints.md §3.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox({ projects: 6 });

describe('§3 DELETE /projects/:id/pipelines/:pipeline_id', () => {
  it('answers the owner 204 with an empty body; the pipeline is then 404 Not found', async () => {
    const r = await c.call('/projects/1/pipelines/1', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.text]).toEqual([204, '']);
    const gone = await c.call('/projects/1/pipelines/1', { as: 'admin' });
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a maintainer (delete is owner only) with 403 Forbidden', async () => {
    const r = await c.call('/projects/2/pipelines/4', { as: 'user', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers a pipeline of another project 404 Not found', async () => {
    const r = await c.call('/projects/1/pipelines/4', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('§3 updated_before', () => {
  it('keeps the pipelines updated at or before the time', async () => {
    const all = (await c.call('/projects/3/pipelines', { as: 'admin' })).json as Array<{ id: number; updated_at: string }>;
    const t = all[1]!.updated_at;
    const r = await c.call(`/projects/3/pipelines?updated_before=${t}`, { as: 'admin' });
    expect(ids(r)).toEqual(all.filter((p) => p.updated_at <= t).map((p) => p.id));
    expect(ids(r)).toEqual([8, 7]);
  });
});
