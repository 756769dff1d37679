// Protected branches and tags: the service's lib/api/protected_branches.rb (`conflict!("Protected
// branch '#{params[:name]}' already exists")`, `find_by!(name:)` → `404 Not found`, PATCH of
// allow_force_push and code_owner_approval_required, `destroy_conditionally!` → 204),
// lib/api/protected_tags.rb (`Protected tag '…' already exists`), entities/protected_branch.rb,
// protected_tag.rb and protected_ref_access.rb (id, access_level, access_level_description, user_id,
// group_id), and ProtectedRefAccess's descriptions (No one, Developers + Maintainers, Maintainers).
// The rules are the one source of a branch's and a tag's `protected` field, of who may merge into a
// branch and of who may create a tag. The sandbox's choices are in src/sandbox/README.md, "Protected branches and tags".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const admin = (method: string, path: string, json?: Record<string, unknown>) => c.call(path, { as: 'admin', method, json });
const level = (id: number, access_level: number, access_level_description: string) => ({
  id,
  access_level,
  access_level_description,
  user_id: null,
  group_id: null,
});

describe('GET /projects/:id/protected_branches', () => {
  it('lists the seeded rules, main and the release/* wildcard, as ProtectedBranch entities', async () => {
    const r = await admin('GET', '/projects/1/protected_branches');
    expect([r.status, r.headers['x-total']]).toEqual([200, '2']);
    expect(r.json).toEqual([
      {
        id: 11,
        name: 'main',
        push_access_levels: [level(1110, 40, 'Maintainers')],
        merge_access_levels: [level(1120, 40, 'Maintainers')],
        unprotect_access_levels: [],
        allow_force_push: false,
        code_owner_approval_required: false,
      },
      {
        id: 12,
        name: 'release/*',
        push_access_levels: [level(1210, 40, 'Maintainers')],
        merge_access_levels: [level(1220, 40, 'Maintainers')],
        unprotect_access_levels: [],
        allow_force_push: false,
        code_owner_approval_required: false,
      },
    ]);
  });

  it('reads one rule by its name, a wildcard encoded, and answers 404 Not found for none', async () => {
    const r = await admin('GET', '/projects/1/protected_branches/release%2F%2A');
    expect([r.status, r.json.name]).toEqual([200, 'release/*']);
    const none = await admin('GET', '/projects/1/protected_branches/develop');
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('POST, PATCH and DELETE /projects/:id/protected_branches', () => {
  it('protects a wildcard with the levels given, which the branches listing then follows', async () => {
    const before = await admin('GET', '/projects/2/repository/branches/feature%2Flogin');
    expect(before.json.protected).toBe(false);
    const r = await admin('POST', '/projects/2/protected_branches', {
      name: 'feature/*',
      push_access_level: 0,
      merge_access_level: 30,
      unprotect_access_level: 60,
      allow_force_push: true,
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: 500000,
      name: 'feature/*',
      push_access_levels: [level(50000010, 0, 'No one')],
      merge_access_levels: [level(50000020, 30, 'Developers + Maintainers')],
      unprotect_access_levels: [level(50000030, 60, 'Admins')],
      allow_force_push: true,
      code_owner_approval_required: false,
    });
    const after = await admin('GET', '/projects/2/repository/branches?search=feature');
    expect(after.json.map((b: { name: string; protected: boolean }) => [b.name, b.protected])).toEqual([
      ['feature/login', true],
      ['feature/search-v2', true],
    ]);
    const removed = await admin('DELETE', '/projects/2/repository/branches/feature%2Flogin');
    expect([removed.status, removed.json]).toEqual([405, { message: 'Protected branch cant be removed' }]);
  });

  it('answers 409 for a name already protected and 400 for a level that is none', async () => {
    const taken = await admin('POST', '/projects/1/protected_branches', { name: 'main' });
    expect([taken.status, taken.json]).toEqual([409, { message: "Protected branch 'main' already exists" }]);
    const bad = await admin('POST', '/projects/1/protected_branches', { name: 'x', push_access_level: 20 });
    expect([bad.status, bad.json]).toEqual([400, { error: 'push_access_level does not have a valid value' }]);
    const missing = await admin('POST', '/projects/1/protected_branches', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing' }]);
  });

  it('patches allow_force_push and code_owner_approval_required, and unprotects with 204', async () => {
    const r = await admin('PATCH', '/projects/3/protected_branches/main', { code_owner_approval_required: true });
    expect([r.status, r.json.allow_force_push, r.json.code_owner_approval_required]).toEqual([200, false, true]);
    const gone = await admin('DELETE', '/projects/3/protected_branches/main');
    expect([gone.status, gone.text]).toEqual([204, '']);
    const branch = await admin('GET', '/projects/3/repository/branches/main');
    expect(branch.json.protected).toBe(false);
    const again = await admin('DELETE', '/projects/3/protected_branches/main');
    expect([again.status, again.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses anyone below maintainer with 403', async () => {
    const added = await admin('POST', '/projects/4/members', { user_id: 3, access_level: 30 });
    expect(added.status).toBe(201);
    const as = { as: 'admin' as const, headers: { Sudo: added.json.username } };
    const read = await c.call('/projects/4/protected_branches', as);
    expect([read.status, read.json]).toEqual([403, { message: '403 Forbidden' }]);
    const write = await c.call('/projects/4/protected_branches', { ...as, method: 'POST', json: { name: 'develop' } });
    expect([write.status, write.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('merging follows the rules', () => {
  it('lets a developer merge into main once its rule lets developers merge', async () => {
    const added = await admin('POST', '/projects/1/members', { user_id: 3, access_level: 30 });
    expect(added.status).toBe(201);
    const as = { as: 'admin' as const, headers: { Sudo: added.json.username } };
    const opened = await admin('GET', '/projects/1/merge_requests?state=opened&target_branch=main&per_page=1');
    const iid = opened.json[0].iid;
    const canMerge = async () => (await c.call(`/projects/1/merge_requests/${iid}`, as)).json.user.can_merge;
    expect(await canMerge()).toBe(false);
    expect((await admin('DELETE', '/projects/1/protected_branches/main')).status).toBe(204);
    expect((await admin('POST', '/projects/1/protected_branches', { name: 'main', merge_access_level: 30 })).status).toBe(201);
    expect(await canMerge()).toBe(true);
  });
});

describe('/projects/:id/protected_tags', () => {
  it('lists the seeded v* rule as a ProtectedTag entity, and protects and unprotects others', async () => {
    const r = await admin('GET', '/projects/5/protected_tags');
    expect(r.json).toEqual([{ name: 'v*', create_access_levels: [level(5310, 40, 'Maintainers')] }]);
    const made = await admin('POST', '/projects/5/protected_tags', { name: 'nightly-*', create_access_level: 30 });
    expect([made.status, made.json]).toEqual([
      201,
      { name: 'nightly-*', create_access_levels: [level(50000210, 30, 'Developers + Maintainers')] },
    ]);
    const taken = await admin('POST', '/projects/5/protected_tags', { name: 'v*' });
    expect([taken.status, taken.json]).toEqual([409, { message: "Protected tag 'v*' already exists" }]);
    const one = await admin('GET', '/projects/5/protected_tags/nightly-%2A');
    expect([one.status, one.json.name]).toEqual([200, 'nightly-*']);
    const gone = await admin('DELETE', '/projects/5/protected_tags/v%2A');
    expect(gone.status).toBe(204);
    const tag = await admin('GET', '/projects/5/repository/tags/v1.0.0');
    expect(tag.json.protected).toBe(false);
    const none = await admin('GET', '/projects/5/protected_tags/v%2A');
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });

  it('lets only the levels a rule names create a matching tag', async () => {
    const added = await admin('POST', '/projects/5/members', { user_id: 3, access_level: 30 });
    const as = { as: 'admin' as const, headers: { Sudo: added.json.username } };
    const create = (tag_name: string) => c.call('/projects/5/repository/tags', { ...as, method: 'POST', json: { tag_name, ref: 'main' } });
    expect((await create('nightly-1')).status).toBe(201);
    expect((await admin('POST', '/projects/5/protected_tags', { name: 'stable', create_access_level: 0 })).status).toBe(201);
    const refused = await create('stable');
    expect([refused.status, refused.json]).toEqual([400, { message: 'You are not allowed to create this tag as it is protected.' }]);
  });
});
