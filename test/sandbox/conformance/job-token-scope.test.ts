// The CI/CD job token's inbound scope: the service's lib/api/project_job_token_scope.rb (maintainers
// read and add, `requires :id, type: Integer` on the writes, `not_found!("target_project_id not found")`,
// a removal checking the role in the service and answering `forbidden!(message)`), entities
// project_job_token_scope.rb, project_scope_link.rb, group_scope_link.rb and basic_group_details.rb,
// and app/services/ci/job_token_scope/{add,remove}_{project,group}_service.rb with
// edit_scope_validations.rb (their texts). The sandbox's choices: src/sandbox/README.md.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const as = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const send = (path: string, method: string, json: Record<string, unknown>, who: object = { as: 'admin' }) =>
  c.call(path, { ...who, method, json });
const bad = (message: string) => [400, { message: `400 Bad request - ${message}` }];

describe('GET /projects/:id/job_token_scope and its allowlists', () => {
  it('answers the setting, the project itself on its allowlist, and an empty group allowlist', async () => {
    const even = await c.call('/projects/2/job_token_scope', { as: 'admin' });
    expect([even.status, even.json]).toEqual([200, { inbound_enabled: true, outbound_enabled: false }]);
    const odd = await c.call('/projects/1/job_token_scope', { as: 'admin' });
    expect(odd.json).toEqual({ inbound_enabled: false, outbound_enabled: false });
    const list = await c.call('/projects/2/job_token_scope/allowlist', { as: 'admin' });
    expect([list.status, list.headers['x-total'], list.json.map((p: { id: number }) => p.id)]).toEqual([200, '1', [2]]);
    expect(Object.keys(list.json[0])).toContain('path_with_namespace');
    const groups = await c.call('/projects/2/job_token_scope/groups_allowlist', { as: 'admin' });
    expect([groups.status, groups.json]).toEqual([200, []]);
  });

  it('refuses anyone below maintainer', async () => {
    const added = await send('/projects/3/members', 'POST', { user_id: 5, access_level: 30 });
    const developer = added.json.username as string;
    const r = await c.call('/projects/3/job_token_scope', as(developer));
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
    const write = await send('/projects/3/job_token_scope/allowlist', 'POST', { target_project_id: 1 }, as(developer));
    expect([write.status, write.json]).toEqual([403, { message: '403 Forbidden' }]);
    const remove = await send('/projects/3/job_token_scope/allowlist/1', 'DELETE', {}, as(developer));
    expect([remove.status, remove.json]).toEqual([
      403,
      { message: '403 Forbidden - Insufficient permissions to modify the job token scope' },
    ]);
  });
});

describe('adding to and removing from the allowlists', () => {
  it('adds a project once, refuses itself, an unknown one, a path as the id, and a missing target', async () => {
    const added = await send('/projects/2/job_token_scope/allowlist', 'POST', { target_project_id: 4 });
    expect([added.status, added.json]).toEqual([201, { source_project_id: 2, target_project_id: 4 }]);
    const twice = await send('/projects/2/job_token_scope/allowlist', 'POST', { target_project_id: 4 });
    expect([twice.status, twice.json]).toEqual(bad('Target project is already in the job token scope'));
    const self = await send('/projects/2/job_token_scope/allowlist', 'POST', { target_project_id: 2 });
    expect([self.status, self.json]).toEqual(bad("Validation failed: Target project can't be the same as the source project"));
    const unknown = await send('/projects/2/job_token_scope/allowlist', 'POST', { target_project_id: 999 });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 target_project_id not found Not Found' }]);
    const missing = await send('/projects/2/job_token_scope/allowlist', 'POST', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'target_project_id is missing' }]);
    const path = encodeURIComponent(c.sb.state.project(2)!.fullPath);
    const byPath = await send(`/projects/${path}/job_token_scope/allowlist`, 'POST', { target_project_id: 3 });
    expect([byPath.status, byPath.json]).toEqual([400, { error: 'id is invalid' }]);
    const list = await c.call('/projects/2/job_token_scope/allowlist', { as: 'admin' });
    expect(list.json.map((p: { id: number }) => p.id)).toEqual([2, 4]);

    const removed = await send('/projects/2/job_token_scope/allowlist/4', 'DELETE', {});
    expect(removed.status).toBe(204);
    const again = await send('/projects/2/job_token_scope/allowlist/4', 'DELETE', {});
    expect([again.status, again.json]).toEqual(bad('Target project is not in the job token scope'));
    const selfRemoved = await send('/projects/2/job_token_scope/allowlist/2', 'DELETE', {});
    expect([selfRemoved.status, selfRemoved.json]).toEqual(bad('Source project cannot be removed from the job token scope'));
    const gone = await send('/projects/2/job_token_scope/allowlist/999', 'DELETE', {});
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('adds a group once and lists it as BasicGroupDetails; removes it; an unknown group is its own 404', async () => {
    const added = await send('/projects/2/job_token_scope/groups_allowlist', 'POST', { target_group_id: 4 });
    expect([added.status, added.json]).toEqual([201, { source_project_id: 2, target_group_id: 4 }]);
    const twice = await send('/projects/2/job_token_scope/groups_allowlist', 'POST', { target_group_id: 4 });
    expect([twice.status, twice.json]).toEqual(bad('Target group is already in the job token scope'));
    const list = await c.call('/projects/2/job_token_scope/groups_allowlist', { as: 'admin' });
    const g = c.sb.state.group(4)!;
    expect(list.json).toEqual([{ id: 4, web_url: `${c.sb.url.replace(/\/$/, '')}/groups/${g.fullPath}`, name: g.name }]);
    const removed = await send('/projects/2/job_token_scope/groups_allowlist/4', 'DELETE', {});
    expect(removed.status).toBe(204);
    const again = await send('/projects/2/job_token_scope/groups_allowlist/4', 'DELETE', {});
    expect([again.status, again.json]).toEqual(bad('Target group is not in the job token scope'));
    const unknown = await send('/projects/2/job_token_scope/groups_allowlist/999', 'DELETE', {});
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 target_group_id not found Not Found' }]);
  });
});

describe('a job token on another project, as that project’s inbound allowlist says (Ci::JobToken::Allowlist)', () => {
  const asJob = (path: string) => c.call(path, { headers: { 'JOB-TOKEN': c.sb.tokens.job } });
  const refusal = [
    403,
    {
      message:
        '403 Forbidden - Authentication by CI/CD job token not allowed from acme/platform/eager-lynx-2 to initech/backend/lucky-beacon-4.',
    },
  ];

  it('reaches a project that does not limit inbound access, on the listed routes only', async () => {
    const open = await asJob('/projects/1/releases');
    expect([open.status, open.json.map((r: { tag_name: string }) => r.tag_name)]).toEqual([200, ['v1.1.0', 'v1.0.0']]);
    const unlisted = await asJob('/projects/1/repository/compare?from=main&to=main');
    expect([unlisted.status, unlisted.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it('reaches a limiting project once it lists the job’s project, and not after the removal', async () => {
    expect(await asJob('/projects/4/releases').then((r) => [r.status, r.json])).toEqual(refusal);
    const added = await send('/projects/4/job_token_scope/allowlist', 'POST', { target_project_id: 2 });
    expect(added.status).toBe(201);
    const reached = await asJob('/projects/4/releases');
    expect([reached.status, reached.headers['x-total']]).toEqual([200, '2']);
    const removed = await send('/projects/4/job_token_scope/allowlist/2', 'DELETE', {});
    expect(removed.status).toBe(204);
    expect(await asJob('/projects/4/releases').then((r) => [r.status, r.json])).toEqual(refusal);
  });

  it('reaches a limiting project that lists a group holding the job’s project at any depth', async () => {
    const job = await c.call('/projects/2', { as: 'admin' });
    const parent = await c.call(`/groups/${job.json.namespace.id}`, { as: 'admin' });
    expect([job.json.namespace.full_path, parent.json.parent_id === null]).toEqual(['acme/platform', false]);
    const top = parent.json.parent_id as number;
    const added = await send('/projects/4/job_token_scope/groups_allowlist', 'POST', { target_group_id: top });
    expect(added.status).toBe(201);
    const reached = await asJob('/projects/4/releases');
    expect(reached.status).toBe(200);
    const removed = await send(`/projects/4/job_token_scope/groups_allowlist/${top}`, 'DELETE', {});
    expect(removed.status).toBe(204);
    expect(await asJob('/projects/4/releases').then((r) => [r.status, r.json])).toEqual(refusal);
  });
});
