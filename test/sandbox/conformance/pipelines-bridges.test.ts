// Bridges, child and multi-project pipelines, pipeline variables: service-endpoints.md §3
// (bridges route, Bridge = JobBasic + downstream_pipeline, child pipelines listed only with
// source=parent_pipeline, variables route) and §4 (scope values).
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../support/clock.js';
import { useSandbox } from './setup.js';

// Pipelines move on only when a test moves the clock, so "before" and "after" never depend on the machine's speed.
const clock = new TestClock();
const c = useSandbox({ projects: 6, clock: clock.now });

const PIPELINE_BASIC_KEYS = ['created_at', 'id', 'iid', 'project_id', 'ref', 'sha', 'source', 'status', 'updated_at', 'web_url'];
const JOB_BASIC_KEYS = [
  'allow_failure',
  'commit',
  'coverage',
  'created_at',
  'duration',
  'erased_at',
  'finished_at',
  'id',
  'name',
  'pipeline',
  'project',
  'queued_duration',
  'ref',
  'stage',
  'started_at',
  'status',
  'tag',
  'user',
  'web_url',
];

async function tree(variables: Array<{ key: string; value: string }>): Promise<number> {
  const r = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: { ref: 'main', variables } });
  expect(r.status).toBe(201);
  return r.json.id as number;
}

const ended = async (project: number, id: number) => {
  const r = await c.call(`/projects/${project}/pipelines/${id}`, { as: 'user' });
  return ['success', 'failed', 'canceled'].includes(r.json.status) ? (r.json.status as string) : undefined;
};

/** How the pipeline ended once the clock is past the end of every pipeline of its tree. */
const endedLater = (project: number, id: number) => {
  clock.advance(60_000);
  return ended(project, id);
};

describe('§3 bridges', () => {
  it('a bridge is JobBasic plus downstream_pipeline, null until the jobs before it ended', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'child' }]);
    const early = await c.call(`/projects/1/pipelines/${id}/bridges`, { as: 'user' });
    expect(early.status).toBe(200);
    expect(early.json.length).toBe(1);
    expect(early.json[0]).toMatchObject({ status: 'created', stage: 'downstream', name: 'trigger:child', downstream_pipeline: null });
    const childJobs = async () =>
      (await c.call('/projects/1/jobs?per_page=100', { as: 'user' })).json.filter(
        (j: { pipeline: { id: number } }) => j.pipeline.id === id + 1,
      );
    expect(await childJobs()).toEqual([]);
    clock.advance(60_000);
    const started = (await c.call(`/projects/1/pipelines/${id}/bridges`, { as: 'user' })).json[0];
    expect(Object.keys(started).sort()).toEqual([...JOB_BASIC_KEYS, 'downstream_pipeline'].sort());
    expect(Object.keys(started.downstream_pipeline).sort()).toEqual(PIPELINE_BASIC_KEYS);
    expect(started.downstream_pipeline).toMatchObject({ id: id + 1, project_id: 1, source: 'parent_pipeline', ref: 'main' });
    expect(started.pipeline.id).toBe(id);
    expect((await childJobs()).map((j: { name: string }) => j.name).sort()).toEqual(['build', 'test']);
    const triggerJobs = await c.call(`/projects/1/pipelines/${id}/trigger_jobs`, { as: 'user' });
    expect([triggerJobs.status, triggerJobs.json]).toEqual([200, [started]]);
  });

  it('the bridge ends as its downstream pipeline ends (strategy depend), and the parent waits for it', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'child' }]);
    expect(await endedLater(1, id)).toBe('success');
    expect(await ended(1, id + 1)).toBe('success');
    const bridges = await c.call(`/projects/1/pipelines/${id}/bridges`, { as: 'user' });
    expect(bridges.json[0].status).toBe('success');
    const parent = await c.call(`/projects/1/pipelines/${id}`, { as: 'user' });
    const child = await c.call(`/projects/1/pipelines/${id + 1}`, { as: 'user' });
    expect(parent.json.finished_at).toBe(child.json.finished_at);
  });

  it('a failing downstream in another project fails its bridge and so every pipeline above it', async () => {
    const target = c.sb.state.project(3)!.fullPath;
    const id = await tree([
      { key: 'SANDBOX_DOWNSTREAM', value: `child>${target}` },
      { key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' },
    ]);
    expect(await endedLater(1, id)).toBe('failed');
    expect(await ended(1, id + 1)).toBe('failed');
    const downstream = await c.call(`/projects/3/pipelines/${id + 2}`, { as: 'user' });
    expect(downstream.json).toMatchObject({ status: 'failed', source: 'pipeline', project_id: 3, ref: 'main' });
    const childBridges = await c.call(`/projects/1/pipelines/${id + 1}/bridges`, { as: 'user' });
    expect(childBridges.json.map((b: { name: string; status: string }) => [b.name, b.status])).toEqual([[`trigger:${target}`, 'failed']]);
    const failedJobs = await c.call(`/projects/3/pipelines/${id + 2}/jobs?scope[]=failed`, { as: 'user' });
    expect(failedJobs.json.map((j: { name: string; failure_reason: string }) => [j.name, j.failure_reason])).toEqual([
      ['test', 'script_failure'],
    ]);
    // Only the last pipeline fails: the parent's and the child's own jobs succeed.
    const parentJobs = await c.call(`/projects/1/pipelines/${id}/jobs`, { as: 'user' });
    expect(parentJobs.json.map((j: { status: string }) => j.status)).toEqual(['success', 'success']);
  });

  it('a bridge to a project that cannot be found fails when it starts, with no downstream pipeline', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'nobody/nothing' }]);
    expect(await endedLater(1, id)).toBe('failed');
    const bridges = await c.call(`/projects/1/pipelines/${id}/bridges`, { as: 'user' });
    expect(bridges.json[0]).toMatchObject({
      status: 'failed',
      failure_reason: 'downstream_bridge_project_not_found',
      downstream_pipeline: null,
    });
  });

  it('scope filters on the status; an unknown one is refused', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'child' }]);
    expect((await c.call(`/projects/1/pipelines/${id}/bridges?scope[]=success`, { as: 'user' })).json).toEqual([]);
    expect((await c.call(`/projects/1/pipelines/${id}/bridges?scope[]=created`, { as: 'user' })).json.length).toBe(1);
    const bad = await c.call(`/projects/1/pipelines/${id}/bridges?scope[]=done`, { as: 'user' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'scope does not have a valid value' });
  });

  it('a pipeline without trigger jobs has an empty list; an unknown pipeline is 404 Not found', async () => {
    const none = await c.call('/projects/1/pipelines/1/bridges', { as: 'user' });
    expect(none.status).toBe(200);
    expect(none.json).toEqual([]);
    const other = await c.call('/projects/1/pipelines/4/bridges', { as: 'user' });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: '404 Not found' });
  });

  it('a seeded share: the newest seeded pipeline of project 1 (id 3) started that of project 2 (id 6)', async () => {
    const bridges = await c.call('/projects/1/pipelines/3/bridges', { as: 'user' });
    expect(bridges.json.length).toBe(1);
    expect(bridges.json[0]).toMatchObject({
      id: 900_000_003,
      status: 'success',
      name: `trigger:${c.sb.state.project(2)!.fullPath}`,
      downstream_pipeline: { id: 6, project_id: 2, source: 'pipeline', status: 'success' },
    });
    expect((await c.call('/projects/2/pipelines?source=pipeline', { as: 'user' })).json.map((p: { id: number }) => p.id)).toEqual([6]);
    expect((await c.call('/projects/1/pipelines/2/bridges', { as: 'user' })).json).toEqual([]);
    expect((await c.call('/projects/2/pipelines/6/bridges', { as: 'user' })).json).toEqual([]);
  });

  it('child pipelines are listed only with source=parent_pipeline', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'child' }]);
    expect(await endedLater(1, id)).toBe('success');
    const listed = await c.call('/projects/1/pipelines?per_page=100', { as: 'user' });
    expect(listed.json.some((p: { id: number }) => p.id === id + 1)).toBe(false);
    const children = await c.call('/projects/1/pipelines?source=parent_pipeline&per_page=100', { as: 'user' });
    expect(children.json.map((p: { id: number }) => p.id)).toContain(id + 1);
    expect(children.json.every((p: { source: string }) => p.source === 'parent_pipeline')).toBe(true);
  });

  it('canceling the parent cancels the pipelines it started', async () => {
    const id = await tree([{ key: 'SANDBOX_DOWNSTREAM', value: 'child' }]);
    const r = await c.call(`/projects/1/pipelines/${id}/cancel`, { as: 'user', method: 'POST' });
    expect(r.status).toBe(200);
    expect(await endedLater(1, id)).toBe('canceled');
    expect(await endedLater(1, id + 1)).toBe('canceled');
  });
});

describe('sandbox job timing variables', () => {
  it('SANDBOX_JOB_QUEUED_SECONDS and SANDBOX_JOB_RUNNING_SECONDS set how long jobs wait and run, down the tree', async () => {
    const id = await tree([
      { key: 'SANDBOX_JOB_QUEUED_SECONDS', value: '0.4' },
      { key: 'SANDBOX_JOB_RUNNING_SECONDS', value: '0.4' },
      { key: 'SANDBOX_DOWNSTREAM', value: 'child' },
    ]);
    const jobs = await c.call(`/projects/1/pipelines/${id}/jobs`, { as: 'user' });
    const test = jobs.json.find((j: { name: string }) => j.name === 'test');
    const created = Date.parse(jobs.json[0].created_at);
    const statusAt = async (ms: number) => {
      clock.advance(created + ms - clock.now());
      return (await c.call(`/projects/1/jobs/${test.id}`, { as: 'user' })).json.status as string;
    };
    expect(await statusAt(300)).toBe('pending');
    expect(await statusAt(700)).toBe('running');
    expect(await statusAt(1000)).toBe('success');
    const child = await c.call(`/projects/1/pipelines/${id + 1}/variables`, { as: 'user' });
    expect(child.json).toEqual([
      { variable_type: 'env_var', key: 'SANDBOX_JOB_QUEUED_SECONDS', value: '0.4' },
      { variable_type: 'env_var', key: 'SANDBOX_JOB_RUNNING_SECONDS', value: '0.4' },
    ]);
  });
});

describe('§3 pipeline variables', () => {
  it('answers the variables the pipeline was created with, unpaginated', async () => {
    const r = await c.call('/projects/2/pipeline', {
      as: 'user',
      method: 'POST',
      json: {
        ref: 'main',
        variables: [
          { key: 'DEPLOY_ENV', value: 'staging' },
          { key: 'CONFIG', value: 'a: 1\n', variable_type: 'file' },
        ],
      },
    });
    const vars = await c.call(`/projects/2/pipelines/${r.json.id}/variables`, { as: 'user' });
    expect(vars.status).toBe(200);
    expect(vars.headers['x-total']).toBe(undefined);
    expect(vars.json).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'staging' },
      { variable_type: 'file', key: 'CONFIG', value: 'a: 1\n' },
    ]);
    const none = await c.call('/projects/2/pipelines/4/variables', { as: 'user' });
    expect(none.json).toEqual([]);
  });
});
