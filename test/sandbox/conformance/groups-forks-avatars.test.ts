// Group lists honour `skip_groups[]` and GET /groups/:id is GroupDetail (service-endpoints.md §9;
// gitlab-org/gitlab lib/api/groups.rb `skip_groups`, lib/api/entities/group_detail.rb `shared_with_groups`,
// `projects`, `shared_projects`); a fork shows `forked_from_project` (lib/api/entities/project.rb); an avatar
// sent with POST /users is kept (lib/api/users.rb `optional :avatar`, a file).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });
const ids = (r: { json: Array<{ id: number }> }) => r.json.map((g) => g.id);

describe('§9 group lists and GroupDetail', () => {
  it('skip_groups[] leaves those groups out of /groups, /subgroups and /descendant_groups', async () => {
    const all = await c.call('/groups?order_by=id&sort=asc&per_page=100', { as: 'admin' });
    const skipped = await c.call('/groups?order_by=id&sort=asc&per_page=100&skip_groups[]=1&skip_groups[]=3', { as: 'admin' });
    expect(ids(skipped)).toEqual(ids(all).filter((id) => id !== 1 && id !== 3));
    const sub = await c.call('/groups/1/descendant_groups?skip_groups[]=2', { as: 'admin' });
    expect(ids(sub)).not.toContain(2);
    const subAll = await c.call('/groups/1/descendant_groups', { as: 'admin' });
    expect(ids(subAll)).toContain(2);
    const bad = await c.call('/groups?skip_groups[]=x', { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'skip_groups is invalid' }]);
  });

  it('GET /groups/:id is GroupDetail: shared_with_groups, its projects and the projects shared with it', async () => {
    const share = await c.call('/projects/3/share', { as: 'admin', method: 'POST', json: { group_id: 2, group_access: 30 } });
    expect(share.status).toBe(201);
    const r = await c.call('/groups/2', { as: 'admin' });
    expect(r.json.shared_with_groups).toEqual([]);
    const own = (r.json.projects as Array<{ id: number; namespace: { id: number } }>).map((p) => p.namespace.id);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((ns) => ns === 2)).toBe(true);
    expect((r.json.projects as Array<{ id: number }>).map((p) => p.id)).toContain(1);
    expect((r.json.shared_projects as Array<{ id: number }>).map((p) => p.id)).toEqual([3]);
    const lean = await c.call('/groups/2?with_projects=false', { as: 'admin' });
    expect(['projects' in lean.json, 'shared_projects' in lean.json, lean.json.shared_with_groups]).toEqual([false, false, []]);
    const list = await c.call('/groups?per_page=100', { as: 'admin' });
    expect('projects' in list.json[0]).toBe(false);
  });
});

describe('§8 forks and avatars', () => {
  it('a fork carries forked_from_project (BasicProjectDetails of its parent) and the parent counts it', async () => {
    const before = (await c.call('/projects/1', { as: 'user' })).json.forks_count as number;
    const fork = await c.call('/projects/1/fork', { as: 'user', method: 'POST', json: { name: 'my-fork', path: 'my-fork' } });
    expect(fork.status).toBe(201);
    const parent = await c.call('/projects/1?simple=true', { as: 'user' });
    expect(fork.json.forked_from_project.id).toBe(1);
    expect(fork.json.forked_from_project.path_with_namespace).toBe(parent.json.path_with_namespace);
    expect('permissions' in fork.json.forked_from_project).toBe(false);
    expect((await c.call('/projects/1', { as: 'user' })).json.forks_count).toBe(before + 1);
    const plain = await c.call('/projects/1', { as: 'user' });
    expect('forked_from_project' in plain.json).toBe(false);
  });

  it('POST /users keeps an uploaded avatar: avatar_url points at it', async () => {
    const boundary = 'sandbox-boundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(part('email', 'pic@example.com') + part('name', 'Pic') + part('username', 'pic') + part('password', 'long-enough')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await c.call('/users', {
      as: 'admin',
      method: 'POST',
      body,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(r.status).toBe(201);
    expect(r.json.avatar_url).toBe(`${c.sb.url}/uploads/-/system/user/avatar/${r.json.id}/me.png`);
    const read = await c.call(`/users/${r.json.id}`, { as: 'user' });
    expect(read.json.avatar_url).toBe(r.json.avatar_url);
    const text = await c.call('/users', {
      as: 'admin',
      method: 'POST',
      json: { email: 'q@example.com', name: 'Q', username: 'q', password: 'long-enough', avatar: 'x' },
    });
    expect([text.status, text.json]).toEqual([400, { error: 'avatar is invalid' }]);
  });
});
