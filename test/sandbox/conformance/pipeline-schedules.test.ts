// Pipeline schedules: the service's lib/api/ci/pipeline_schedules.rb (`not_found!('Pipeline
// Schedule')`, play answers `created!`, a variable's delete `status :accepted`), entities/ci/
// pipeline_schedule.rb and pipeline_schedule_details.rb (last_pipeline and variables on one),
// app/validators/cron_validator.rb (`" is invalid syntax"`, `" is invalid timezone"`) and
// app/policies/ci/pipeline_schedule_policy.rb (developers create and play, the owner updates,
// the owner or a maintainer deletes, a maintainer takes ownership: 200 when already the owner). The sandbox's choices: src/sandbox/README.md.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const NOW = Date.UTC(2026, 0, 15, 10, 30); // a Thursday
const c = useSandbox({ projects: 5, clock: () => NOW });
const sudo = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const call = (path: string, method: string, json: Record<string, unknown>, as: object = { as: 'admin' }) =>
  c.call(path, { ...as, method, json });

async function member(userId: number, level: number): Promise<string> {
  const r = await c.call('/projects/3/members', { as: 'admin', method: 'POST', json: { user_id: userId, access_level: level } });
  expect(r.status).toBe(201);
  return r.json.username;
}

describe('POST /projects/:id/pipeline_schedules', () => {
  it('creates a schedule owned by the caller, with next_run_at from the cron in its time zone', async () => {
    const r = await call('/projects/1/pipeline_schedules', 'POST', { description: 'Nightly', ref: 'main', cron: '0 2 * * *' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      id: 1,
      description: 'Nightly',
      ref: 'main',
      cron: '0 2 * * *',
      cron_timezone: 'UTC',
      next_run_at: '2026-01-16T02:00:00.000Z',
      active: true,
      created_at: '2026-01-15T10:30:00.000Z',
      updated_at: '2026-01-15T10:30:00.000Z',
      last_pipeline: null,
      variables: [],
    });
    expect(r.json.owner.username).toBe('root');
    const zoned = await call('/projects/1/pipeline_schedules', 'POST', {
      description: 'Weekdays in Berlin',
      ref: 'main',
      cron: '*/15 9-17 * * 1-5',
      cron_timezone: 'Europe/Berlin',
      active: false,
    });
    expect([zoned.json.next_run_at, zoned.json.active]).toEqual(['2026-01-15T10:45:00.000Z', false]);
  });

  it('answers the validator’s texts for a cron or a time zone that is none, and names what is missing', async () => {
    const cron = await call('/projects/1/pipeline_schedules', 'POST', { description: 'x', ref: 'main', cron: '61 * * * *' });
    expect([cron.status, cron.json]).toEqual([400, { message: { cron: [' is invalid syntax'] } }]);
    const zone = await call('/projects/1/pipeline_schedules', 'POST', {
      description: 'x',
      ref: 'main',
      cron: '0 * * * *',
      cron_timezone: 'Mars/Base',
    });
    expect([zone.status, zone.json]).toEqual([400, { message: { cron_time_zone: [' is invalid timezone'] } }]);
    const missing = await call('/projects/1/pipeline_schedules', 'POST', { ref: 'main' });
    expect([missing.status, missing.json]).toEqual([400, { error: 'description is missing, cron is missing' }]);
  });
});

describe('next_run_at', () => {
  it('reads lists, steps, Sunday as 7, either day field, and skips months without the day', async () => {
    const next = async (cron: string) => {
      const r = await call('/projects/2/pipeline_schedules', 'POST', { description: cron, ref: 'main', cron });
      expect(r.status).toBe(201);
      return r.json.next_run_at;
    };
    expect(await next('5,10 10 * * *')).toBe('2026-01-16T10:05:00.000Z');
    expect(await next('0 12 * * 7')).toBe('2026-01-18T12:00:00.000Z');
    expect(await next('0 0 1 * 5')).toBe('2026-01-16T00:00:00.000Z');
    expect(await next('0 0 29 2 *')).toBe('2028-02-29T00:00:00.000Z');
    expect(await next('*/20 */6 * 3-4 *')).toBe('2026-03-01T00:00:00.000Z');
    for (const cron of ['* * * *', '0 0 * JAN *', '0 24 * * *', '0 0 0 * *']) {
      const r = await call('/projects/2/pipeline_schedules', 'POST', { description: 'x', ref: 'main', cron });
      expect([r.status, r.json]).toEqual([400, { message: { cron: [' is invalid syntax'] } }]);
    }
  });
});

describe('GET /projects/:id/pipeline_schedules', () => {
  it('lists without last_pipeline and variables; scope keeps the active or the inactive ones', async () => {
    const all = await c.call('/projects/1/pipeline_schedules', { as: 'admin' });
    expect(all.json.map((s: { id: number }) => s.id)).toEqual([1, 2]);
    expect('variables' in all.json[0]).toBe(false);
    const inactive = await c.call('/projects/1/pipeline_schedules?scope=inactive', { as: 'admin' });
    expect(inactive.json.map((s: { id: number }) => s.id)).toEqual([2]);
    const bad = await c.call('/projects/1/pipeline_schedules?scope=all', { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'scope does not have a valid value' }]);
    const none = await c.call('/projects/1/pipeline_schedules/99', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Pipeline Schedule Not Found' }]);
  });
});

describe('play, variables, ownership', () => {
  it('plays a schedule: a pipeline on its ref with source schedule, with its variables, then last_pipeline', async () => {
    const v = await call('/projects/1/pipeline_schedules/1/variables', 'POST', { key: 'MODE', value: 'nightly' });
    expect([v.status, v.json]).toEqual([201, { key: 'MODE', value: 'nightly', variable_type: 'env_var' }]);
    const twice = await call('/projects/1/pipeline_schedules/1/variables', 'POST', { key: 'MODE', value: 'x' });
    expect([twice.status, twice.json]).toEqual([400, { message: { key: ['(MODE) has already been taken'] } }]);
    const played = await call('/projects/1/pipeline_schedules/1/play', 'POST', {});
    expect([played.status, played.json]).toEqual([201, { message: '201 Created' }]);
    const one = await c.call('/projects/1/pipeline_schedules/1', { as: 'admin' });
    const pipeline = await c.call(`/projects/1/pipelines/${one.json.last_pipeline.id}`, { as: 'admin' });
    expect([pipeline.json.source, pipeline.json.ref]).toEqual(['schedule', 'main']);
    expect(one.json.last_pipeline).toEqual({ id: pipeline.json.id, sha: pipeline.json.sha, ref: 'main', status: pipeline.json.status });
    const vars = await c.call(`/projects/1/pipelines/${pipeline.json.id}/variables`, { as: 'admin' });
    expect(vars.json).toEqual([{ key: 'MODE', value: 'nightly', variable_type: 'env_var' }]);
    const changed = await call('/projects/1/pipeline_schedules/1/variables/MODE', 'PUT', { value: 'full', variable_type: 'file' });
    expect(changed.json).toEqual({ key: 'MODE', value: 'full', variable_type: 'file' });
    const gone = await call('/projects/1/pipeline_schedules/1/variables/MODE', 'DELETE', {});
    expect([gone.status, gone.json]).toEqual([202, { key: 'MODE', value: 'full', variable_type: 'file' }]);
    const again = await call('/projects/1/pipeline_schedules/1/variables/MODE', 'DELETE', {});
    expect([again.status, again.json]).toEqual([404, { message: '404 Pipeline Schedule Variable Not Found' }]);
  });

  it('lists the pipelines a schedule started as PipelineBasic, ascending by id unless sort=desc', async () => {
    const made = await call('/projects/1/pipeline_schedules', 'POST', { description: 'runs', ref: 'main', cron: '0 4 * * *' });
    const path = `/projects/1/pipeline_schedules/${made.json.id}`;
    const none = await c.call(`${path}/pipelines`, { as: 'admin' });
    expect([none.status, none.json, none.headers['x-total']]).toEqual([200, [], '0']);
    expect((await call(`${path}/play`, 'POST', {})).status).toBe(201);
    const first = (await c.call(path, { as: 'admin' })).json.last_pipeline.id;
    expect((await call(`${path}/play`, 'POST', {})).status).toBe(201);
    const second = (await c.call(path, { as: 'admin' })).json.last_pipeline.id;
    const asc = await c.call(`${path}/pipelines`, { as: 'admin' });
    expect([asc.status, asc.json.map((p: { id: number }) => p.id), asc.headers['x-total']]).toEqual([200, [first, second], '2']);
    expect(Object.keys(asc.json[0]).sort()).toEqual(
      ['created_at', 'id', 'iid', 'project_id', 'ref', 'sha', 'source', 'status', 'updated_at', 'web_url'].sort(),
    );
    expect(asc.json[0]).toMatchObject({ source: 'schedule', ref: 'main', project_id: 1 });
    const desc = await c.call(`${path}/pipelines?sort=desc`, { as: 'admin' });
    expect(desc.json.map((p: { id: number }) => p.id)).toEqual([second, first]);
    const missing = await c.call('/projects/1/pipeline_schedules/999/pipelines', { as: 'admin' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Pipeline Schedule Not Found' }]);
  });

  it('reads one variable by key for the owner or a maintainer; an unknown key is 404 Pipeline Schedule Variable Not Found', async () => {
    const path = '/projects/1/pipeline_schedules/1/variables';
    expect((await call(path, 'POST', { key: 'READ_ME', value: 'v' })).status).toBe(201);
    const one = await c.call(`${path}/READ_ME`, { as: 'admin' });
    expect([one.status, one.json]).toEqual([200, { key: 'READ_ME', value: 'v', variable_type: 'env_var' }]);
    const none = await c.call(`${path}/NOPE`, { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Pipeline Schedule Variable Not Found' }]);
    expect((await call(`${path}/READ_ME`, 'DELETE', {})).status).toBe(202);
  });

  it('a developer creates and updates their own; another developer may not update it; a maintainer takes it over; the owner deletes their own', async () => {
    const dev = await member(3, 30);
    const other = await member(4, 30);
    const maintainer = await member(5, 40);
    const created = await call('/projects/3/pipeline_schedules', 'POST', { description: 'd', ref: 'main', cron: '0 0 * * 0' }, sudo(dev));
    expect([created.status, created.json.owner.username, created.json.next_run_at]).toEqual([201, dev, '2026-01-18T00:00:00.000Z']);
    const path = `/projects/3/pipeline_schedules/${created.json.id}`;
    expect((await call(path, 'PUT', { active: false }, sudo(dev))).status).toBe(200);
    const refused = await call(path, 'PUT', { active: true }, sudo(other));
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await call(`${path}/take_ownership`, 'POST', {}, sudo(other))).status).toBe(403);
    expect((await call(path, 'DELETE', {}, sudo(other))).status).toBe(403);
    const taken = await call(`${path}/take_ownership`, 'POST', {}, sudo(maintainer));
    expect([taken.status, taken.json.owner.username]).toEqual([201, maintainer]);
    const again = await call(`${path}/take_ownership`, 'POST', {}, sudo(maintainer));
    expect([again.status, again.json.owner.username]).toEqual([200, maintainer]);
    expect((await call(path, 'PUT', { active: true }, sudo(dev))).status).toBe(403);
    expect((await call(path, 'PUT', { active: true }, sudo(maintainer))).json.active).toBe(true);
    expect((await call(path, 'DELETE', {}, sudo(maintainer))).status).toBe(204);
    expect((await c.call(path, { as: 'admin' })).status).toBe(404);
    const own = await call('/projects/3/pipeline_schedules', 'POST', { description: 'o', ref: 'main', cron: '0 0 * * *' }, sudo(dev));
    const ownAgain = await call(`/projects/3/pipeline_schedules/${own.json.id}/take_ownership`, 'POST', {}, sudo(dev));
    expect([ownAgain.status, ownAgain.json.owner.username, ownAgain.json.updated_at]).toEqual([200, dev, own.json.updated_at]);
    expect((await call(`/projects/3/pipeline_schedules/${own.json.id}`, 'DELETE', {}, sudo(dev))).status).toBe(204);
  });
});
