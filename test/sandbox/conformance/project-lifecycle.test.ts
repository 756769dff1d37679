// Projects lifecycle: service-endpoints.md §8 (update, archive, delayed deletion, restore, transfer,
// share, fork), one test per fact.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });
const path = (id: number) => c.sb.state.project(id)!.fullPath;

const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

describe('endpoints §8 PUT /projects/:id', () => {
  it('answers 200 with the changed project', async () => {
    const r = await c.call('/projects/4', { method: 'PUT', as: 'admin', json: { description: 'changed', topics: ['a', 'b'] } });
    expect([r.status, r.json.description, r.json.topics]).toEqual([200, 'changed', ['a', 'b']]);
  });

  it('refuses a path the service would not create (400, the model message), leaving the project as it was', async () => {
    const before = c.sb.state.project(4)!.fullPath;
    for (const path of ['bad path', '-lead', 'x.git']) {
      const r = await c.call('/projects/4', { method: 'PUT', as: 'admin', json: { path } });
      expect([path, r.status, r.json]).toEqual([path, 400, { message: { path: [PATH_MESSAGE] } }]);
    }
    expect(c.sb.state.project(4)!.fullPath).toBe(before);
  });

  it('needs at least one of its parameters (the service list, see project-settings.test.ts)', async () => {
    const r = await c.call('/projects/4', { method: 'PUT', as: 'admin', json: {} });
    expect(r.status).toBe(400);
    expect((r.json.error as string).startsWith('allow_merge_on_skipped_pipeline, analytics_access_level, ')).toBe(true);
    expect((r.json.error as string).endsWith(', container_registry_enabled are missing, at least one parameter must be provided')).toBe(
      true,
    );
  });

  it('changes default_branch to an existing branch, and answers 400 "Could not set the default branch" otherwise', async () => {
    const r = await c.call('/projects/5', { method: 'PUT', as: 'admin', json: { default_branch: 'develop' } });
    expect([r.status, r.json.default_branch, (r.json.readme_url as string).endsWith('/-/blob/develop/README.md')]).toEqual([
      200,
      'develop',
      true,
    ]);
    const bad = await c.call('/projects/5', { method: 'PUT', as: 'admin', json: { default_branch: 'no-such-branch' } });
    expect([bad.status, bad.json]).toEqual([400, { message: 'Could not set the default branch' }]);
    expect((await c.call('/projects/5', { as: 'admin' })).json.default_branch).toBe('develop');
  });

  it('is refused with 403 to a user who only reads the project', async () => {
    // jdoe belongs to the acme tree only: a public project elsewhere is readable, not writable.
    const outside = Array.from({ length: 30 }, (_, i) => c.sb.state.project(i + 1)!).find(
      (p) => p.visibility === 'public' && !p.fullPath.startsWith('acme/') && p.nsKind === 'group',
    )!;
    const r = await c.call(`/projects/${outside.id}`, { method: 'PUT', as: 'user', json: { description: 'x' } });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('endpoints §8 archive and unarchive', () => {
  it('answers 201 with the project, archived; writes are then refused; unarchive answers 201', async () => {
    const archived = await c.call('/projects/5/archive', { method: 'POST', as: 'admin' });
    expect([archived.status, archived.json.archived]).toEqual([201, true]);
    const write = await c.call('/projects/5/issues', { method: 'POST', as: 'admin', json: { title: 't' } });
    expect([write.status, write.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unarchived = await c.call('/projects/5/unarchive', { method: 'POST', as: 'admin' });
    expect([unarchived.status, unarchived.json.archived]).toEqual([201, false]);
  });
});

describe('endpoints §8 delayed deletion', () => {
  it('answers 202 {"message":"202 Accepted"} and marks, archives and renames the project', async () => {
    const old = path(6);
    const r = await c.call('/projects/6', { method: 'DELETE', as: 'admin' });
    expect([r.status, r.json]).toEqual([202, { message: '202 Accepted' }]);
    const p = (await c.call('/projects/6', { as: 'admin' })).json;
    expect([p.archived, p.path_with_namespace, p.marked_for_deletion_on]).toEqual([
      true,
      `${old}-deletion_scheduled-6`,
      new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    ]);
    expect((await c.call(`/projects/${encodeURIComponent(old)}`, { as: 'admin' })).status).toBe(404);
  });

  it('refuses permanent removal of an unmarked project', async () => {
    const r = await c.call(`/projects/7?permanently_remove=true&full_path=${encodeURIComponent(path(7))}`, {
      method: 'DELETE',
      as: 'admin',
    });
    expect([r.status, r.json]).toEqual([400, { message: 'Project must be marked for deletion first.' }]);
  });

  it('refuses permanent removal with the old full_path', async () => {
    const old = path(12);
    await c.call('/projects/12', { method: 'DELETE', as: 'admin' });
    const r = await c.call(`/projects/12?permanently_remove=true&full_path=${encodeURIComponent(old)}`, { method: 'DELETE', as: 'admin' });
    expect([r.status, r.json]).toEqual([400, { message: '`full_path` is incorrect. You must enter the complete path for the project.' }]);
  });

  it('removes a marked project with its renamed full_path (202), after which the id 404s', async () => {
    const r = await c.call(`/projects/12?permanently_remove=true&full_path=${encodeURIComponent(path(12))}`, {
      method: 'DELETE',
      as: 'admin',
    });
    expect([r.status, r.json]).toEqual([202, { message: '202 Accepted' }]);
    expect((await c.call('/projects/12', { as: 'admin' })).json).toEqual({ message: '404 Project Not Found' });
  });

  it('deletes a personal-namespace project at once (202)', async () => {
    expect(c.sb.state.project(8)!.nsKind).toBe('user');
    const r = await c.call('/projects/8', { method: 'DELETE', as: 'admin' });
    expect([r.status, r.json]).toEqual([202, { message: '202 Accepted' }]);
    expect((await c.call('/projects/8', { as: 'admin' })).json).toEqual({ message: '404 Project Not Found' });
  });

  it('restores a marked project (201) under its old name and path, unarchived', async () => {
    const old = path(9);
    await c.call('/projects/9', { method: 'DELETE', as: 'admin' });
    const r = await c.call('/projects/9/restore', { method: 'POST', as: 'admin' });
    expect([r.status, r.json.path_with_namespace, r.json.archived, r.json.marked_for_deletion_on]).toEqual([201, old, false, null]);
  });

  it('is refused to a maintainer (owner only)', async () => {
    const r = await c.call('/projects/2', { method: 'DELETE', as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('endpoints §8 transfer', () => {
  it('answers 404 Namespace Not Found for an unknown namespace', async () => {
    const r = await c.call('/projects/10/transfer', { method: 'PUT', as: 'admin', json: { namespace: 'nowhere' } });
    expect([r.status, r.json]).toEqual([404, { message: '404 Namespace Not Found' }]);
  });

  it('answers 400 "Failed to transfer project …" for its own namespace', async () => {
    const ns = path(10).split('/').slice(0, -1).join('/');
    const r = await c.call('/projects/10/transfer', { method: 'PUT', as: 'admin', json: { namespace: ns } });
    expect([r.status, (r.json.message as string).startsWith('Failed to transfer project ')]).toEqual([400, true]);
  });
});

describe('endpoints §8 share', () => {
  it('answers 409 Group already shared with this group for an existing share', async () => {
    const first = await c.call('/projects/11/share', { method: 'POST', as: 'admin', json: { group_id: 5, group_access: 30 } });
    expect(first.status).toBe(201);
    const again = await c.call('/projects/11/share', { method: 'POST', as: 'admin', json: { group_id: 5, group_access: 30 } });
    expect([again.status, again.json]).toEqual([409, { message: 'Group already shared with this group' }]);
  });

  it('takes every level of Gitlab::Access.all_values (planner, 15, included) and refuses others (400)', async () => {
    const planner = await c.call('/projects/14/share', { method: 'POST', as: 'admin', json: { group_id: 5, group_access: 15 } });
    expect([planner.status, planner.json]).toEqual([201, { id: 14005, project_id: 14, group_id: 5, group_access: 15, expires_at: null }]);
    const minimal = await c.call('/projects/14/share', { method: 'POST', as: 'admin', json: { group_id: 4, group_access: 5 } });
    expect([minimal.status, minimal.json]).toEqual([400, { error: 'group_access does not have a valid value' }]);
  });
});

describe('endpoints §8 fork', () => {
  it('answers 404 Target Namespace Not Found for a namespace the caller cannot use', async () => {
    const r = await c.call('/projects/1/fork', { method: 'POST', as: 'admin', json: { namespace_path: 'nowhere' } });
    expect([r.status, r.json]).toEqual([404, { message: '404 Target Namespace Not Found' }]);
  });

  it('answers 409 with one sentence when the name is taken', async () => {
    await c.call('/projects/1/fork', { method: 'POST', as: 'admin', json: { namespace_path: 'globex' } });
    const r = await c.call('/projects/1/fork', { method: 'POST', as: 'admin', json: { namespace_path: 'globex' } });
    expect([r.status, r.json]).toEqual([409, { message: 'Name has already been taken, Path has already been taken' }]);
  });
});
