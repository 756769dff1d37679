// Runners: service-endpoints.md §12, one test per fact. Fixed runners (runner-store.ts): 1 online,
// 2 offline, 3 stale, 4 never contacted, 5 paused (instance); 6 acme, 7 globex (group); 8 project 2,
// 9 projects 1 and 2, 10 project 3 never contacted since 30 days (project).
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });

describe('endpoints §12 GET /runners/all', () => {
  it('lists every runner to an administrator, with the list shape', async () => {
    const r = await c.call('/runners/all?per_page=100', { as: 'admin' });
    expect([r.status, ids(r)]).toEqual([200, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
    expect(r.json[0]).toEqual({
      id: 1,
      description: 'instance-runner-1',
      ip_address: null,
      active: true,
      paused: false,
      is_shared: true,
      runner_type: 'instance_type',
      name: 'gitlab-runner',
      online: true,
      status: 'online',
    });
  });

  it('is refused to a user who is not an administrator', async () => {
    const r = await c.call('/runners/all', { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('derives status from contacted_at: stale, never_contacted, paused, online, offline', async () => {
    const r = await c.call('/runners/all?per_page=100', { as: 'admin' });
    expect((r.json as Array<{ status: string }>).map((x) => x.status)).toEqual([
      'online',
      'offline',
      'stale',
      'never_contacted',
      'paused',
      'online',
      'stale',
      'online',
      'stale',
      'stale',
    ]);
  });

  it('filters by type, status scope, paused and tags', async () => {
    const get = async (q: string) => ids(await c.call(`/runners/all?${q}`, { as: 'admin' }));
    expect(await get('type=group_type')).toEqual([6, 7]);
    expect(await get('status=stale')).toEqual([3, 7, 9, 10]);
    expect(await get('status=offline')).toEqual([2, 3, 7, 9]);
    expect(await get('status=never_contacted')).toEqual([4, 10]);
    expect(await get('paused=true')).toEqual([5]);
    expect(await get('tag_list=docker,linux')).toEqual([1, 8]);
  });

  it('answers 400 for a status outside its values, and for a bad scope', async () => {
    const status = await c.call('/runners/all?status=sleeping', { as: 'admin' });
    expect([status.status, status.json]).toEqual([400, { error: 'status does not have a valid value' }]);
    const scope = await c.call('/runners/all?scope=sleeping', { as: 'admin' });
    expect([scope.status, scope.json]).toEqual([400, { message: 'Scope contains invalid value' }]);
  });
});

describe('endpoints §12 GET /runners', () => {
  it("lists a user's own group and project runners only (jdoe maintains acme's)", async () => {
    const r = await c.call('/runners', { as: 'user' });
    expect([r.status, ids(r)]).toEqual([200, [6, 8, 9, 10]]);
  });
});

describe('endpoints §12 GET /runners/:id', () => {
  it('shows an instance runner to anyone signed in, with the details', async () => {
    const r = await c.call('/runners/1', { as: 'user' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'id',
      'description',
      'ip_address',
      'active',
      'paused',
      'is_shared',
      'runner_type',
      'name',
      'online',
      'status',
      'tag_list',
      'run_untagged',
      'locked',
      'maximum_timeout',
      'access_level',
      'version',
      'revision',
      'platform',
      'architecture',
      'contacted_at',
      'maintenance_note',
      'projects',
      'groups',
    ]);
    expect(r.json.tag_list).toEqual(['docker', 'linux']);
  });

  it("answers 403 No access granted for another owner's runner", async () => {
    const r = await c.call('/runners/7', { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden - No access granted' }]);
  });

  it('answers 404 Runner Not Found for an unknown id', async () => {
    const r = await c.call('/runners/99999', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Runner Not Found' }]);
  });
});

describe('endpoints §12 PUT /runners/:id', () => {
  it('pauses a runner: paused true, active false, status paused', async () => {
    const r = await c.call('/runners/8', { method: 'PUT', as: 'user', json: { paused: true } });
    expect([r.status, r.json.paused, r.json.active, r.json.status]).toEqual([200, true, false, 'paused']);
    const back = await c.call('/runners/8', { method: 'PUT', as: 'user', json: { paused: false } });
    expect([back.json.paused, back.json.status]).toEqual([false, 'online']);
  });

  it('needs at least one parameter', async () => {
    const r = await c.call('/runners/8', { method: 'PUT', as: 'admin', json: {} });
    expect([r.status, r.json]).toEqual([
      400,
      {
        error:
          'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
      },
    ]);
  });

  it('takes paused or the deprecated active, not both', async () => {
    const r = await c.call('/runners/8', { method: 'PUT', as: 'admin', json: { paused: true, active: true } });
    expect([r.status, r.json]).toEqual([400, { error: 'paused, active are mutually exclusive' }]);
  });

  it('refuses an instance runner to a user who is not an administrator', async () => {
    const r = await c.call('/runners/1', { method: 'PUT', as: 'user', json: { paused: true } });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden - No access granted' }]);
  });
});

describe('endpoints §12 DELETE /runners/:id', () => {
  it('refuses a runner of more than one project to its maintainer', async () => {
    const r = await c.call('/runners/9', { method: 'DELETE', as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden - Runner associated with more than one project' }]);
  });

  it('answers 204, then the runner is gone', async () => {
    const r = await c.call('/runners/10', { method: 'DELETE', as: 'user' });
    expect([r.status, r.text]).toEqual([204, '']);
    const after = await c.call('/runners/10', { as: 'admin' });
    expect([after.status, after.json]).toEqual([404, { message: '404 Runner Not Found' }]);
  });
});

describe('endpoints §12 GET /runners/:id/jobs', () => {
  it("lists the runner's jobs, newest first, filtered by status", async () => {
    const r = await c.call('/runners/8/jobs', { as: 'admin' });
    expect([r.status, ids(r)]).toEqual([200, [12, 11, 10, 9, 8, 7]]);
    const ok = await c.call('/runners/8/jobs?status=failed&sort=asc', { as: 'admin' });
    expect((ok.json as Array<{ id: number; status: string }>).map((j) => [j.id, j.status])).toEqual([[10, 'failed']]);
  });

  it('answers 400 for a status outside the job statuses', async () => {
    const r = await c.call('/runners/8/jobs?status=sleeping', { as: 'admin' });
    expect([r.status, r.json]).toEqual([400, { error: 'status does not have a valid value' }]);
  });
});

describe('endpoints §12 GET /projects/:id/runners and /groups/:id/runners', () => {
  it("lists a project's runners: the instance's, its groups', and its own", async () => {
    const r = await c.call('/projects/2/runners?per_page=100', { as: 'user' });
    expect([r.status, ids(r)]).toEqual([200, [1, 2, 3, 4, 5, 6, 8, 9]]);
    const typed = await c.call('/projects/2/runners?type=project_type', { as: 'user' });
    expect(ids(typed)).toEqual([8, 9]);
  });

  it("lists a group's runners: the instance's and its own and its ancestors'", async () => {
    const r = await c.call('/groups/2/runners?type=group_type', { as: 'user' });
    expect([r.status, ids(r)]).toEqual([200, [6]]);
  });

  it('is refused to a user who does not maintain the project or group', async () => {
    const outside = Array.from({ length: 30 }, (_, i) => c.sb.state.project(i + 1)!).find(
      (x) => x.visibility === 'public' && !x.fullPath.startsWith('acme/') && x.nsKind === 'group',
    )!;
    const p = await c.call(`/projects/${outside.id}/runners`, { as: 'user' });
    expect([p.status, p.json]).toEqual([403, { message: '403 Forbidden' }]);
    const g = await c.call('/groups/4/runners', { as: 'user' });
    expect([g.status, g.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});
