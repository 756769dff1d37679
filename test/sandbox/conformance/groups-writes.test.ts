// Group writes: service-endpoints.md §9 (POST /groups 201 and its `Failed to save group` 400, PUT owner 200,
// DELETE 202 with the `-deletion_scheduled-<id>` rename, POST /groups/:id/transfer 201 with `group_id`
// optional) and service-behaviour.md (the Group entity, `404 Group Not Found`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const as = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const post = (path: string, json: unknown, opts: Record<string, unknown> = { as: 'admin' }) =>
  c.call(path, { ...opts, method: 'POST', json });

describe('endpoints §9 POST /groups', () => {
  it('creates a top-level group (201, the Group entity) whose creator is its owner', async () => {
    const r = await post('/groups', { name: 'Ops', path: 'ops', visibility: 'internal', description: 'Operations' }, { as: 'user' });
    expect(r.status).toBe(201);
    expect([r.json.full_path, r.json.name, r.json.visibility, r.json.description, r.json.parent_id, r.json.marked_for_deletion_on]).toEqual(
      ['ops', 'Ops', 'internal', 'Operations', null, null],
    );
    const members = await c.call('/groups/ops/members', { as: 'admin' });
    expect(members.json.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['jdoe', 50]]);
  });

  it('creates a subgroup under a group where the caller is owner, and refuses one elsewhere (403)', async () => {
    const sub = await post('/groups', { name: 'Tools', path: 'tools', parent_id: c.sb.state.group('ops')!.id }, { as: 'user' });
    expect([sub.status, sub.json.full_path, sub.json.full_name, sub.json.visibility]).toEqual([201, 'ops/tools', 'Ops / Tools', 'private']);
    const refused = await post('/groups', { name: 'X', path: 'x', parent_id: 1 }, { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers 400 Failed to save group for a taken path, 400 for missing parameters, 404 for an unknown parent', async () => {
    const taken = await post('/groups', { name: 'Acme 2', path: 'acme' });
    expect([taken.status, taken.json]).toEqual([400, { message: 'Failed to save group {:path=>["has already been taken"]}' }]);
    const missing = await post('/groups', { description: 'x' });
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing, path is missing' }]);
    const parent = await post('/groups', { name: 'Y', path: 'y', parent_id: 99999 });
    expect([parent.status, parent.json]).toEqual([404, { message: '404 Group Not Found' }]);
  });

  it('keeps user namespace ids where they were after groups are created', async () => {
    const jdoe = await c.call('/users/2', { as: 'admin' });
    const ns = await c.call(`/namespaces/${jdoe.json.namespace_id}`, { as: 'admin' });
    expect([ns.status, ns.json.kind, ns.json.full_path]).toEqual([200, 'user', 'jdoe']);
    const ops = await c.call(`/namespaces/${c.sb.state.group('ops')!.id}`, { as: 'admin' });
    expect([ops.status, ops.json.kind, ops.json.full_path]).toEqual([200, 'group', 'ops']);
  });
});

describe('endpoints §9 group paths', () => {
  const message = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

  it('refuses a path the service would not create: POST 400 Failed to save group, PUT 400 with the model message', async () => {
    const created = await post('/groups', { name: 'Spaced', path: 'spaced path' });
    expect([created.status, created.json]).toEqual([400, { message: `Failed to save group {:path=>["${message}"]}` }]);
    expect((await post('/groups', { name: 'Lead', path: '-lead' })).status).toBe(400);
    const updated = await c.call('/groups/1', { as: 'admin', method: 'PUT', json: { path: 'x.atom' } });
    expect([updated.status, updated.json]).toEqual([400, { message: { path: [message] } }]);
    expect(c.sb.state.group(1)!.fullPath).toBe('acme');
  });
});

describe('endpoints §9 PUT /groups/:id visibility', () => {
  it("refuses a visibility below its projects' or its subgroups' (400, the model messages), and takes one above", async () => {
    const lowered = await c.call('/groups/1', { as: 'admin', method: 'PUT', json: { visibility: 'private' } });
    expect([lowered.status, lowered.json]).toEqual([
      400,
      {
        message: {
          visibility_level: [
            'private is not allowed since this group contains projects with higher visibility.',
            'private is not allowed since there are sub-groups with higher visibility.',
          ],
        },
      },
    ]);
    expect(c.sb.state.group(1)!.visibility).toBe('public');
    const empty = await post('/groups', { name: 'Quiet', path: 'quiet', visibility: 'public' });
    const privateEmpty = await c.call(`/groups/${empty.json.id}`, { as: 'admin', method: 'PUT', json: { visibility: 'private' } });
    expect([privateEmpty.status, privateEmpty.json.visibility]).toEqual([200, 'private']);
  });
});

describe('endpoints §9 PUT /groups/:id', () => {
  it('renames a group and everything under it (200), for its owner only (403 otherwise)', async () => {
    const refused = await c.call('/groups/ops', { ...as('olivia.garcia'), method: 'PUT', json: { name: 'Nope' } });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const notOwner = await c.call('/groups/acme', { as: 'user', method: 'PUT', json: { description: 'x' } });
    expect([notOwner.status, notOwner.json]).toEqual([403, { message: '403 Forbidden' }]);
    const r = await c.call('/groups/ops', { as: 'user', method: 'PUT', json: { path: 'operations', name: 'Operations' } });
    expect([r.status, r.json.full_path, r.json.name]).toEqual([200, 'operations', 'Operations']);
    expect(c.sb.state.group('operations/tools')!.fullName).toBe('Operations / Tools');
    expect(c.sb.state.group('ops')).toBe(null);
  });

  it('answers 400 with the validation body for a taken path', async () => {
    const r = await c.call('/groups/operations', { as: 'user', method: 'PUT', json: { path: 'acme' } });
    expect([r.status, r.json]).toEqual([400, { message: { path: ['has already been taken'] } }]);
  });
});

describe('endpoints §9 POST /groups/:id/transfer', () => {
  it('moves a group under another (201) and its projects with it', async () => {
    const project = await post('/projects', { name: 'Runbooks', namespace_id: c.sb.state.group('operations/tools')!.id }, { as: 'user' });
    expect(project.status).toBe(201);
    const r = await post('/groups/operations%2Ftools/transfer', { group_id: c.sb.state.group('acme')!.id });
    expect([r.status, r.json.full_path, r.json.parent_id]).toEqual([201, 'acme/tools', 1]);
    expect(c.sb.state.project(project.json.id)!.fullPath).toBe('acme/tools/runbooks');
  });

  it("promotes a subgroup to the top level without group_id: its old parent's members no longer count", async () => {
    const under = await c.call('/groups/acme%2Ftools/members/all', { as: 'admin' });
    expect(under.json.map((m: { username: string }) => m.username)).toEqual(['jdoe', 'olivia.garcia', 'sybil.lopez']);
    const r = await post('/groups/acme%2Ftools/transfer', {});
    expect([r.status, r.json.full_path, r.json.parent_id]).toEqual([201, 'tools', null]);
    const members = await c.call('/groups/tools/members/all', { as: 'admin' });
    expect(members.json.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['jdoe', 50]]);
  });

  it("answers 400 with the TransferService's reasons", async () => {
    const root = await post('/groups/acme/transfer', {});
    expect([root.status, root.json]).toEqual([400, { message: 'Transfer failed: Group is already a root group.' }]);
    const same = await post('/groups/acme%2Fplatform/transfer', { group_id: 1 });
    expect([same.status, same.json]).toEqual([400, { message: 'Transfer failed: Group is already associated to the parent group.' }]);
    const into = await post('/groups/acme/transfer', { group_id: c.sb.state.group('acme/platform')!.id });
    expect([into.status, into.json]).toEqual([400, { message: 'Transfer failed: Cannot transfer group to one of its subgroup.' }]);
    const clash = await post('/groups/tools/transfer', { group_id: c.sb.state.group('operations')!.id });
    expect(clash.status).toBe(201);
    await post('/groups', { name: 'Tools', path: 'tools' });
    const back = await post('/groups/operations%2Ftools/transfer', {});
    expect([back.status, back.json]).toEqual([
      400,
      { message: 'Transfer failed: The parent group already has a subgroup or a project with the same path.' },
    ]);
    const perms = await post('/groups/operations%2Ftools/transfer', { group_id: 1 }, { as: 'user' });
    expect([perms.status, perms.json]).toEqual([400, { message: "Transfer failed: You don't have enough permissions." }]);
  });

  it('needs the owner role on the group (403)', async () => {
    const r = await post('/groups/acme%2Fplatform/transfer', {}, { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('endpoints §9 DELETE /groups/:id', () => {
  it('answers 202 and marks the group: renamed -deletion_scheduled-<id>, marked_for_deletion_on in 7 days', async () => {
    const g = c.sb.state.group('operations')!;
    const r = await c.call('/groups/operations', { as: 'user', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([202, { message: '202 Accepted' }]);
    const after = await c.call(`/groups/${g.id}`, { as: 'user' });
    const on = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    expect([after.json.full_path, after.json.marked_for_deletion_on]).toEqual([`operations-deletion_scheduled-${g.id}`, on]);
    const again = await c.call(`/groups/${g.id}`, { as: 'user', method: 'DELETE' });
    expect([again.status, again.json]).toEqual([400, { message: 'Group has been already marked for deletion' }]);
  });

  it('needs the owner role (403)', async () => {
    const r = await c.call('/groups/acme', { as: 'user', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});
