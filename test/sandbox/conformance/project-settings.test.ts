// PUT /projects/:id takes the service's long attribute list (service-endpoints.md §8 "at-least-one over a
// long list"; the list, its order and the types: gitlab-org/gitlab lib/api/helpers/projects_helpers.rb,
// `update_params_at_least_one_of`, `optional_project_params_ce`). What it accepts, GET shows.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });

const put = (id: number, json: unknown) => c.call(`/projects/${id}`, { method: 'PUT', as: 'admin', json });

describe('endpoints §8 PUT /projects/:id settings', () => {
  it('accepts a setting sent alone and GET shows it', async () => {
    const r = await put(6, { merge_method: 'ff' });
    expect([r.status, r.json.merge_method]).toEqual([200, 'ff']);
    const g = await c.call('/projects/6', { as: 'admin' });
    expect(g.json.merge_method).toBe('ff');
  });

  it('keeps a setting sent with a supported one instead of dropping it', async () => {
    const r = await put(7, { description: 'd', snippets_enabled: false, squash_option: 'always', build_timeout: '7200' });
    expect([
      r.status,
      r.json.description,
      r.json.snippets_enabled,
      r.json.snippets_access_level,
      r.json.squash_option,
      r.json.build_timeout,
    ]).toEqual([200, 'd', false, 'disabled', 'always', 7200]);
  });

  it('turns issues and merge requests off through either the flag or the access level', async () => {
    const off = await put(8, { issues_enabled: false, merge_requests_access_level: 'disabled' });
    expect([off.json.issues_enabled, off.json.issues_access_level, off.json.merge_requests_enabled]).toEqual([false, 'disabled', false]);
    const listed = await c.call('/projects?with_issues_enabled=true&per_page=100', { as: 'admin' });
    expect((listed.json as Array<{ id: number }>).some((p) => p.id === 8)).toBe(false);
    const priv = await put(8, { issues_access_level: 'private' });
    expect([priv.json.issues_enabled, priv.json.issues_access_level]).toEqual([true, 'private']);
  });

  it('maps the deprecated aliases to their settings', async () => {
    const r = await put(9, { emails_disabled: true, public_builds: false, tag_list: 'x,y' });
    expect([r.json.emails_enabled, r.json.emails_disabled, r.json.public_jobs, r.json.topics]).toEqual([false, true, false, ['x', 'y']]);
  });

  it('merges container_expiration_policy_attributes into the policy', async () => {
    const r = await put(10, { container_expiration_policy_attributes: { enabled: true, keep_n: 5 } });
    expect(r.json.container_expiration_policy).toEqual({
      cadence: '1d',
      enabled: true,
      keep_n: 5,
      older_than: '90d',
      name_regex: '.*',
      name_regex_keep: null,
      next_run_at: null,
    });
  });

  it('refuses a value of the wrong type or outside its values as Grape does, changing nothing', async () => {
    const bad = await put(11, { description: 'never', merge_method: 'octopus' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'merge_method does not have a valid value' }]);
    const notBool = await put(11, { lfs_enabled: 'maybe' });
    expect([notBool.status, notBool.json]).toEqual([400, { error: 'lfs_enabled is invalid' }]);
    const g = await c.call('/projects/11', { as: 'admin' });
    expect([g.json.description === 'never', g.json.merge_method, g.json.lfs_enabled]).toEqual([false, 'merge', true]);
  });

  it('ignores an undeclared attribute (Grape drops it); alone it is the at-least-one 400', async () => {
    const alone = await put(12, { no_such_setting: true });
    expect(alone.status).toBe(400);
    expect(alone.json.error).toMatch(/ are missing, at least one parameter must be provided$/);
    const r = await put(12, { no_such_setting: true, wiki_enabled: false });
    expect([r.status, r.json.wiki_enabled, 'no_such_setting' in r.json]).toEqual([200, false, false]);
  });

  it('moves the repository when an administrator sets repository_storage; an unknown storage is refused', async () => {
    const bad = await put(13, { repository_storage: 'nowhere' });
    expect([bad.status, bad.json]).toEqual([400, { message: { repository_storage: ['is not included in the list'] } }]);
    const storages = c.sb.state.storageWeights();
    const target = Object.keys(storages).find((s) => s !== c.sb.state.project(13)!.storage)!;
    const r = await put(13, { repository_storage: target });
    expect(r.status).toBe(200);
    const moves = await c.call('/projects/13/repository_storage_moves', { as: 'admin' });
    expect([moves.json.length, moves.json[0].destination_storage_name]).toEqual([1, target]);
  });

  it("drops a maintainer's repository_storage, as the service does for anyone but administrators", async () => {
    const before = c.sb.state.project(2)!.storage;
    const other = Object.keys(c.sb.state.storageWeights()).find((s) => s !== before)!;
    const r = await c.call('/projects/2', { method: 'PUT', as: 'user', json: { repository_storage: other, merge_method: 'rebase_merge' } });
    expect([r.status, r.json.merge_method, c.sb.state.project(2)!.storage]).toEqual([200, 'rebase_merge', before]);
    const moves = await c.call('/projects/2/repository_storage_moves', { as: 'admin' });
    expect(moves.json).toEqual([]);
  });

  it("takes an avatar file (multipart) and shows its avatar_url; a text value is Grape's type error", async () => {
    const boundary = 'avatar-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await c.call('/projects/14', {
      method: 'PUT',
      as: 'admin',
      body,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expect([r.status, r.json.avatar_url]).toEqual([200, `${c.sb.url}/uploads/-/system/project/avatar/14/logo.png`]);
    const text = await put(15, { avatar: 'logo.png' });
    expect([text.status, text.json]).toEqual([400, { error: 'avatar is invalid' }]);
  });
});
