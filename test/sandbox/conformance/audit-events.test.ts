// Audit events: service-endpoints.md §13, one test per fact. The sandbox records an event for each
// of its own successful writes to projects, groups, users, members and tokens.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });

type Event = {
  id: number;
  author_id: number;
  entity_id: number;
  entity_type: string;
  event_name: string;
  details: Record<string, unknown>;
};

async function writeSome(): Promise<void> {
  expect((await c.call('/projects/4', { method: 'PUT', as: 'admin', json: { description: 'audited' } })).status).toBe(200);
  expect((await c.call('/projects/4/archive', { method: 'POST', as: 'admin' })).status).toBe(201);
  expect((await c.call('/projects/2', { method: 'PUT', as: 'user', json: { description: 'by jdoe' } })).status).toBe(200);
}

describe('endpoints §13 GET /audit_events', () => {
  it("records the sandbox's own successful writes, newest first, with the reference's shape", async () => {
    await writeSome();
    const failed = await c.call('/projects/4', { method: 'PUT', as: 'admin', json: {} });
    expect(failed.status).toBe(400);
    const r = await c.call('/audit_events', { as: 'admin' });
    expect(r.status).toBe(200);
    const events = r.json as Event[];
    expect(events.map((e) => [e.id, e.author_id, e.entity_type, e.entity_id, e.event_name])).toEqual([
      [3, 2, 'Project', 2, 'project_updated'],
      [2, 1, 'Project', 4, 'project_archived'],
      [1, 1, 'Project', 4, 'project_updated'],
    ]);
    expect(Object.keys(events[0]!)).toEqual(['id', 'author_id', 'entity_id', 'entity_type', 'event_name', 'details', 'created_at']);
    expect(events[0]!.details).toEqual({
      author_name: c.sb.state.user(2)!.name,
      author_class: 'User',
      target_id: 2,
      target_type: 'Project',
      target_details: c.sb.state.project(2)!.fullPath,
      custom_message: 'project updated',
      ip_address: '127.0.0.1',
    });
  });

  it('filters by entity_type and entity_id', async () => {
    const r = await c.call('/audit_events?entity_type=Project&entity_id=2', { as: 'admin' });
    expect(ids(r)).toEqual([3]);
    const bad = await c.call('/audit_events?entity_type=Issue', { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'entity_type does not have a valid value' }]);
  });

  it('filters by created_after and created_before', async () => {
    const future = await c.call('/audit_events?created_after=2999-01-01T00:00:00Z', { as: 'admin' });
    expect(ids(future)).toEqual([]);
    const past = await c.call('/audit_events?created_before=2999-01-01T00:00:00Z', { as: 'admin' });
    expect(ids(past)).toEqual([3, 2, 1]);
  });

  it('pages by keyset on id desc with the cursor in Link rel="next"', async () => {
    const first = await c.call('/audit_events?pagination=keyset&per_page=2', { as: 'admin' });
    expect(ids(first)).toEqual([3, 2]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')![1]!;
    const u = new URL(next);
    const second = await c.call(`${u.pathname.replace('/api/v4', '')}${u.search}`, { as: 'admin' });
    expect([ids(second), second.headers.link]).toEqual([[1], undefined]);
  });

  it('is refused with 403 to a user who is not an administrator', async () => {
    const r = await c.call('/audit_events', { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers 404 Not found for an unknown event', async () => {
    const r = await c.call('/audit_events/999', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('endpoints §13 GET /projects/:id/audit_events', () => {
  it("lists the project's events to an administrator", async () => {
    const r = await c.call('/projects/4/audit_events', { as: 'admin' });
    expect(ids(r)).toEqual([2, 1]);
  });

  it('shows a maintainer every event of the project (jdoe maintains project 2)', async () => {
    const r = await c.call('/projects/2/audit_events', { as: 'user' });
    expect(ids(r)).toEqual([3]);
  });
});

describe('endpoints §13 GET /groups/:id/audit_events', () => {
  it("lists a group's events (its own writes), and refuses one the user is not a member of", async () => {
    const r = await c.call('/groups/1/audit_events', { as: 'admin' });
    expect([r.status, ids(r)]).toEqual([200, []]);
    const denied = await c.call('/groups/4/audit_events', { as: 'user' });
    expect([denied.status, denied.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('endpoints §13 licensing', () => {
  const free = useSandbox({ projects: 5, tier: 'free' });
  it('is refused with 403 without the licence, even to an administrator', async () => {
    const r = await free.call('/audit_events', { as: 'admin' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('event names of the writes the audit log records', () => {
  it('names each write by entity and route, and none for other routes', async () => {
    const { eventName } = await import('../../../src/sandbox/resources/audit-log.js');
    const cases: Array<[string, string, string, string | undefined]> = [
      ['project', 'POST', '', 'project_created'],
      ['project', 'DELETE', '', 'project_destroyed'],
      ['project', 'PUT', '/transfer', 'project_transferred'],
      ['project', 'POST', '/share', 'project_group_link_created'],
      ['project', 'DELETE', '/share/:', 'project_group_link_destroyed'],
      ['group', 'POST', '/members', 'member_created'],
      ['group', 'PUT', '/members/:', 'member_updated'],
      ['project', 'DELETE', '/members/:', 'member_destroyed'],
      ['group', 'POST', '/access_tokens', 'group_access_token_created'],
      ['project', 'POST', '/access_tokens/:/rotate', 'project_access_token_rotated'],
      ['project', 'DELETE', '/access_tokens/:', 'project_access_token_revoked'],
      ['user', 'POST', '/block', 'user_blocked'],
      ['user', 'POST', '/deactivate', 'user_deactivated'],
      ['user', 'POST', '/personal_access_tokens', 'personal_access_token_created'],
      ['user', 'DELETE', '/personal_access_tokens/:', 'personal_access_token_revoked'],
      ['project', 'POST', '/deploy_tokens', 'deploy_token_created'],
      ['project', 'POST', '/issues', undefined],
      ['project', 'PUT', '/repository/files/:', undefined],
    ];
    expect(cases.map(([kind, method, rest]) => eventName(kind, method, rest))).toEqual(cases.map((x) => x[3]));
  });
});

describe('events of creations and deletions', () => {
  it('records a created project under its new id, and its delayed deletion under the path it had', async () => {
    const created = await c.call('/projects', { method: 'POST', as: 'admin', json: { name: 'audited-new', namespace_id: 1 } });
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect((await c.call(`/projects/${id}`, { method: 'DELETE', as: 'admin' })).status).toBe(202);
    const r = await c.call(`/audit_events?entity_type=Project&entity_id=${id}`, { as: 'admin' });
    expect((r.json as Event[]).map((e) => [e.event_name, e.details.target_details])).toEqual([
      ['project_destroyed', 'acme/audited-new'],
      ['project_created', 'acme/audited-new'],
    ]);
  });
});

describe('events of group, member, user and token writes (routes other resources mount)', () => {
  it('records each against the entity the route names, resolved before the write', async () => {
    const { World } = await import('../../../src/sandbox/store/world.js');
    const { auditLog, auditWrite } = await import('../../../src/sandbox/resources/audit-log.js');
    const w = new World({ projects: 10, storages: ['default'], seed: 1, spreadStorages: false });
    const admin = w.users.get(1)!;
    const write = (method: string, pattern: string, rawPath: string, params: Record<string, unknown> = {}) => {
      const ctx = { world: w, user: admin, method, route: { pattern }, rawPath, p: {}, params } as unknown as Parameters<
        typeof auditWrite
      >[0];
      auditWrite(ctx)?.();
    };
    const nextGroup = w.groups.nextId();
    write('POST', '/groups/:id/members', '/api/v4/groups/acme%2Fplatform/members', { user_id: 5 });
    write('DELETE', '/groups/:id/members/:user_id', '/api/v4/groups/1/members/7');
    write('POST', '/users/:id/block', '/api/v4/users/jdoe/block');
    write('POST', '/users/:user_id/personal_access_tokens', '/api/v4/users/2/personal_access_tokens');
    write('DELETE', '/personal_access_tokens/:id', '/api/v4/personal_access_tokens/12');
    write('POST', '/groups', '/api/v4/groups');
    write('POST', '/projects/:id/issues', '/api/v4/projects/1/issues');
    expect(auditLog(w).events.map((e) => [e.entityType, e.entityId, e.eventName, e.targetType, e.targetId])).toEqual([
      ['Group', 2, 'member_created', 'User', 5],
      ['Group', 1, 'member_destroyed', 'User', 7],
      ['User', 2, 'user_blocked', 'User', 2],
      ['User', 2, 'personal_access_token_created', 'User', 2],
      ['User', 1, 'personal_access_token_revoked', 'User', 1],
      ['Group', nextGroup, 'group_created', 'Group', nextGroup],
    ]);
  });
});
