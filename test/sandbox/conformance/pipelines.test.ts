// Pipelines and jobs: service-endpoints.md §3 (list params, errors) and §4 (jobs).
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers.js';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();
let all: Array<Record<string, any>>;

beforeAll(async () => {
  for (const ref of ['develop', 'v1.0.0', 'fail/broken-build']) {
    const r = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: { ref } });
    expect(r.status).toBe(201);
  }
  await waitFor(async () => (await c.call('/projects/1/pipelines?scope=finished', { as: 'user' })).json.length === 6);
  all = (await c.call('/projects/1/pipelines?per_page=100', { as: 'user' })).json;
});

describe('§3 list parameters', () => {
  it('lists newest first by default (order_by=id, sort=desc)', () => {
    expect(all.map((p) => p.id)).toEqual([...all.map((p) => p.id)].sort((a, b) => b - a));
    expect(all.length).toBe(6);
  });

  it('lists PipelineBasic plus name, without the detail fields', () => {
    expect(Object.keys(all[0]!)).toEqual([
      'id',
      'iid',
      'project_id',
      'sha',
      'ref',
      'status',
      'source',
      'created_at',
      'updated_at',
      'web_url',
      'name',
    ]);
    expect(all[0]!.name).toBe(null);
  });

  it('status filters on the status', async () => {
    const failed = await c.call('/projects/1/pipelines?status=failed', { as: 'user' });
    expect(ids(failed)).toEqual(all.filter((p) => p.status === 'failed').map((p) => p.id));
    expect(failed.json.some((p: { ref: string }) => p.ref === 'fail/broken-build')).toBe(true);
  });

  it('refuses an unknown status', async () => {
    const r = await c.call('/projects/1/pipelines?status=passed', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'status does not have a valid value' });
  });

  it('refuses an unknown scope', async () => {
    const r = await c.call('/projects/1/pipelines?scope=done', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'scope does not have a valid value' });
  });

  it('scope=branches keeps the latest pipeline of each branch, scope=tags of each tag', async () => {
    const branches = await c.call('/projects/1/pipelines?scope=branches', { as: 'user' });
    expect(branches.json.map((p: { ref: string }) => p.ref)).toEqual(['fail/broken-build', 'develop', 'main']);
    const tags = await c.call('/projects/1/pipelines?scope=tags', { as: 'user' });
    expect(tags.json.map((p: { ref: string }) => p.ref)).toEqual(['v1.0.0']);
  });

  it('ref, sha and source filter', async () => {
    expect(ids(await c.call('/projects/1/pipelines?ref=develop', { as: 'user' }))).toEqual(
      all.filter((p) => p.ref === 'develop').map((p) => p.id),
    );
    const sha = all[all.length - 1]!.sha as string;
    expect(ids(await c.call(`/projects/1/pipelines?sha=${sha}`, { as: 'user' }))).toEqual(
      all.filter((p) => p.sha === sha).map((p) => p.id),
    );
    expect(ids(await c.call('/projects/1/pipelines?source=api', { as: 'user' }))).toEqual(
      all.filter((p) => p.source === 'api').map((p) => p.id),
    );
  });

  it('refuses an unknown source', async () => {
    const r = await c.call('/projects/1/pipelines?source=cron', { as: 'user' });
    expect(r.json).toEqual({ error: 'source does not have a valid value' });
  });

  it('username filters on the user who ran the pipeline', async () => {
    const r = await c.call('/projects/1/pipelines?username=jdoe', { as: 'user' });
    expect(r.json.map((p: { ref: string }) => p.ref)).toEqual(['fail/broken-build', 'v1.0.0', 'develop']);
  });

  it('updated_after keeps pipelines updated at or after the time', async () => {
    const t = all[2]!.updated_at as string;
    const r = await c.call(`/projects/1/pipelines?updated_after=${t}`, { as: 'user' });
    expect(ids(r)).toEqual(all.filter((p) => p.updated_at >= t).map((p) => p.id));
  });

  it('order_by=ref&sort=asc orders by ref', async () => {
    const r = await c.call('/projects/1/pipelines?order_by=ref&sort=asc', { as: 'user' });
    expect(r.json.map((p: { ref: string }) => p.ref)).toEqual(['develop', 'fail/broken-build', 'main', 'main', 'main', 'v1.0.0']);
  });
});

describe('§3 errors', () => {
  it('answers a pipeline of another project with {"message":"404 Not found"}', async () => {
    const r = await c.call('/projects/1/pipelines/4', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });

  it('answers a create without ref with {"error":"ref is missing"}', async () => {
    const r = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'ref is missing' });
  });
});

describe('§4 jobs', () => {
  it('refuses a bad job scope with {"error":"scope does not have a valid value"}', async () => {
    const r = await c.call('/projects/1/jobs?scope[]=done', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'scope does not have a valid value' });
  });

  it('scope[] keeps jobs in any of the statuses given', async () => {
    const every = (await c.call('/projects/1/jobs?per_page=100', { as: 'user' })).json as Array<{ id: number; status: string }>;
    const r = await c.call('/projects/1/jobs?per_page=100&scope[]=failed&scope[]=canceled', { as: 'user' });
    expect(ids(r)).toEqual(every.filter((j) => j.status === 'failed' || j.status === 'canceled').map((j) => j.id));
    expect(ids(r).length).toBeGreaterThan(0);
  });

  it("lists a pipeline's jobs with scope too, and accepts include_retried", async () => {
    const failed = all.find((p) => p.ref === 'fail/broken-build')!;
    const r = await c.call(`/projects/1/pipelines/${failed.id}/jobs?scope[]=success&include_retried=true`, { as: 'user' });
    expect(r.json.map((j: { name: string }) => j.name)).toEqual(['build']);
  });

  it('answers GET /job with a personal token {"message":"404 Job Not Found"}', async () => {
    const r = await c.call('/job', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Job Not Found' });
  });

  it('answers an unknown job with {"message":"404 Not found"}', async () => {
    const r = await c.call('/projects/1/jobs/999999', { as: 'user' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });
});

describe('test reports (lib/api/ci/pipelines.rb `test_report`, `test_report_summary`)', () => {
  it('answers the empty reports of a pipeline whose jobs upload no JUnit reports; an unknown pipeline is 404 Not found', async () => {
    const report = await c.call('/projects/1/pipelines/1/test_report', { as: 'user' });
    expect([report.status, report.json]).toEqual([
      200,
      { total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [] },
    ]);
    const summary = await c.call('/projects/1/pipelines/1/test_report_summary', { as: 'user' });
    expect([summary.status, summary.json]).toEqual([
      200,
      { total: { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0, suite_error: null }, test_suites: [] },
    ]);
    const none = await c.call('/projects/1/pipelines/99999/test_report', { as: 'user' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('PUT …/pipelines/:pipeline_id/metadata (endpoints §3)', () => {
  it('names a pipeline (200, the Pipeline); the name shows in reads and lists; name is required; a job token may', async () => {
    const named = await c.call('/projects/1/pipelines/1/metadata', { as: 'user', method: 'PUT', json: { name: 'Nightly build' } });
    expect([named.status, named.json.id, named.json.name, 'detailed_status' in named.json]).toEqual([200, 1, 'Nightly build', true]);
    expect((await c.call('/projects/1/pipelines/1', { as: 'user' })).json.name).toBe('Nightly build');
    const listed = (await c.call('/projects/1/pipelines?per_page=100', { as: 'user' })).json.find((p: { id: number }) => p.id === 1);
    expect(listed.name).toBe('Nightly build');
    const missing = await c.call('/projects/1/pipelines/1/metadata', { as: 'user', method: 'PUT', json: {} });
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing' }]);
    const job = await c.call('/projects/2/pipelines/4/metadata', {
      headers: { 'JOB-TOKEN': c.sb.tokens.job },
      method: 'PUT',
      json: { name: 'From CI' },
    });
    expect([job.status, job.json.name]).toEqual([200, 'From CI']);
  });

  it('lists only the pipelines of the name given, matched exactly (PipelinesFinder#by_name)', async () => {
    await c.call('/projects/1/pipelines/2/metadata', { as: 'user', method: 'PUT', json: { name: 'Nightly build' } });
    const named = await c.call('/projects/1/pipelines?name=Nightly%20build', { as: 'user' });
    expect([named.status, named.headers['x-total'], named.json.map((p: { id: number }) => p.id)]).toEqual([200, '2', [2, 1]]);
    const partial = await c.call('/projects/1/pipelines?name=Nightly', { as: 'user' });
    expect([partial.status, partial.json]).toEqual([200, []]);
  });
});
