// User deletion and memberships: service-endpoints.md §11 (DELETE /users/:id 204, `hard_delete`, the 409
// sole-owner text) and gitlab-org/gitlab lib/api/users.rb (`delete ":id"`: admin, `not_found!('User')`, the
// conflict unless `hard_delete`; `get ":user_id/memberships"`: admin, `type` Project|Namespace,
// Entities::Membership), app/models/users/internal.rb (the ghost user's username, name and bio).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const admin = (path: string, method = 'GET', json?: unknown) => c.call(path, { as: 'admin', method, json });
const issuesBy = async (author: number) =>
  ((await admin('/issues?scope=all&per_page=100')).json as Array<{ author: { id: number }; iid: number; project_id: number }>).filter(
    (i) => i.author.id === author,
  );

describe('GET /users/:id/memberships', () => {
  it('lists direct memberships of groups (Namespace) then projects, filtered by type', async () => {
    const all = await admin('/users/2/memberships');
    expect([all.status, all.headers['x-total'], all.json]).toEqual([
      200,
      '3',
      [
        { source_id: 1, source_name: 'Acme', source_type: 'Namespace', access_level: 40 },
        { source_id: 3, source_name: 'Nice Lynx 3', source_type: 'Project', access_level: 40 },
        { source_id: 5, source_name: 'Calm Tundra 5', source_type: 'Project', access_level: 40 },
      ],
    ]);
    const groups = await admin('/users/2/memberships?type=Namespace');
    expect(groups.json).toEqual([{ source_id: 1, source_name: 'Acme', source_type: 'Namespace', access_level: 40 }]);
  });

  it('refuses another type (400), a non-administrator (403) and an unknown user (404)', async () => {
    const bad = await admin('/users/2/memberships?type=Group');
    expect([bad.status, bad.json]).toEqual([400, { error: 'type does not have a valid value' }]);
    const user = await c.call('/users/2/memberships', { as: 'user' });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unknown = await admin('/users/999/memberships');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});

describe('DELETE /projects/:id/members/:user_id of a personal project', () => {
  it("refuses to remove the project's owner (403, ProjectMemberPolicy target_is_owner)", async () => {
    const personal = Array.from({ length: 10 }, (_, i) => c.sb.state.project(i + 1)!).find((p) => p.nsKind === 'user')!;
    const r = await admin(`/projects/${personal.id}/members/${personal.nsOwner}`, 'DELETE');
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('DELETE /users/:id', () => {
  it('refuses a non-administrator (403), an unknown user (404) and a non-integer id (400)', async () => {
    const user = await c.call('/users/4', { as: 'user', method: 'DELETE' });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unknown = await admin('/users/999', 'DELETE');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
    const text = await admin('/users/erin', 'DELETE');
    expect([text.status, text.json]).toEqual([400, { error: 'id is invalid' }]);
  });

  it('soft delete: 204, the user is gone, their issues now show the ghost user, their memberships are removed', async () => {
    const authored = await issuesBy(8);
    expect(authored.length).toBeGreaterThan(0);
    const r = await admin('/users/8', 'DELETE');
    expect([r.status, r.text]).toEqual([204, '']);
    expect((await admin('/users/8')).status).toBe(404);
    const ghost = (await admin('/users?username=ghost')).json[0];
    expect([ghost.name, ghost.state, ghost.bio]).toEqual([
      'Ghost User',
      'active',
      'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
    ]);
    const first = authored[0]!;
    const issue = await admin(`/projects/${first.project_id}/issues/${first.iid}`);
    expect([issue.json.author.id, issue.json.author.username]).toEqual([ghost.id, 'ghost']);
    expect((await admin('/groups/3/members/8')).status).toBe(404);
    expect((await admin('/users/8', 'DELETE')).status).toBe(404);
  });

  it('answers 409 for the sole owner of a group; a hard delete goes ahead, with their issues and that group', async () => {
    const owner = await admin('/groups/2/members', 'POST', { user_id: 4, access_level: 50 });
    expect(owner.status).toBe(201);
    const refused = await admin('/users/4', 'DELETE');
    expect([refused.status, refused.json]).toEqual([409, { message: 'User cannot be removed while is the sole-owner of a group' }]);
    const inGroup = ((await admin('/groups/2/projects')).json as Array<{ id: number }>).map((p) => p.id);
    expect(inGroup.length).toBeGreaterThan(0);
    const all = (await admin('/issues?scope=all&per_page=100')).json as Array<{ author: { id: number }; project_id: number }>;
    const kept = all.filter((i) => i.author.id !== 4 && !inGroup.includes(i.project_id)).length;
    expect(kept).toBeLessThan(all.length - (await issuesBy(4)).length);
    const r = await admin('/users/4?hard_delete=true', 'DELETE');
    expect(r.status).toBe(204);
    expect(Number((await admin('/issues?scope=all')).headers['x-total'])).toBe(kept);
    expect((await admin('/groups/2')).status).toBe(404);
    for (const id of inGroup) expect((await admin(`/projects/${id}`)).status).toBe(404);
    expect((await admin('/groups/1')).status).toBe(200);
  });

  it("refuses a deleted user's token (401)", async () => {
    const created = await admin('/users', 'POST', {
      email: 'leaver@example.com',
      username: 'leaver',
      name: 'Leaver',
      password: 'long enough',
    });
    const token = await admin(`/users/${created.json.id}/personal_access_tokens`, 'POST', { name: 't', scopes: ['api'] });
    expect((await c.call('/user', { token: token.json.token })).status).toBe(200);
    expect((await admin(`/users/${created.json.id}`, 'DELETE')).status).toBe(204);
    const r = await c.call('/user', { token: token.json.token });
    expect(r.status).toBe(401);
  });
});
