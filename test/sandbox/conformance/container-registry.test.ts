// A project's container registry: the service's lib/api/project_container_repositories.rb
// (`authorize_read_container_images!` before every route; `container_repositories.find` → `404 Not found`;
// `not_found!('Tag')`; the bulk delete's `at_least_one_of :name_regex, :name_regex_delete`, its
// `untrusted_regexp` parameters, the one-hour `ExclusiveLease` and `status :accepted`),
// entities/container_registry.rb (Repository, Tag, TagDetails), api/validations/validators/untrusted_regexp.rb
// and app/services/projects/container_repository/cleanup_tags_service.rb (latest never deleted, full-match
// regexes, keep_n by creation time, older_than). The sandbox's choices are in src/sandbox/README.md,
// "Container registry".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

let now = Date.now();
const c = useSandbox({ projects: 10, clock: () => now });
const DAY = 86_400_000;
const names = (json: Array<{ name: string }>) => json.map((t) => t.name);
const asUser = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });

async function member(userId: number, level: number): Promise<string> {
  const r = await c.call('/projects/2/members', { as: 'admin', method: 'POST', json: { user_id: userId, access_level: level } });
  expect(r.status).toBe(201);
  return r.json.username;
}

describe('GET /projects/:id/registry/repositories', () => {
  it('lists the repositories as Repository entities, tags and tags_count only when asked, paged', async () => {
    const r = await c.call('/projects/1/registry/repositories', { as: 'user' });
    expect([r.status, r.headers['x-total'], r.headers['x-per-page']]).toEqual([200, '2', '20']);
    const path = r.json[0].path as string;
    expect(r.json[0]).toEqual({
      id: 1,
      name: '',
      path,
      project_id: 1,
      location: `127.0.0.1:5050/${path}`,
      created_at: expect.stringMatching(/Z$/),
      cleanup_policy_started_at: null,
      status: null,
    });
    expect(r.json[1]).toMatchObject({ id: 2, name: 'worker', path: `${path}/worker` });
    const more = await c.call('/projects/1/registry/repositories?tags=true&tags_count=true', { as: 'user' });
    expect(more.json[1].tags_count).toBe(6);
    expect(more.json[1].tags[0]).toEqual({
      name: 'build-1',
      path: `${path}/worker:build-1`,
      location: `127.0.0.1:5050/${path}/worker:build-1`,
    });
  });

  it('is open to anyone on a public project, needs the reporter role on a private one, and hides an unseen one', async () => {
    expect((await c.call('/projects/1/registry/repositories')).status).toBe(200);
    expect((await c.call('/projects/2/registry/repositories')).json).toEqual({ message: '404 Project Not Found' });
    const guest = await member(4, 10);
    const refused = await c.call('/projects/2/registry/repositories', asUser(guest));
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('GET …/registry/repositories/:repository_id/tags[/:tag_name]', () => {
  it('lists the tags by name (offset or keyset pages) and gives one tag’s details', async () => {
    const list = await c.call('/projects/1/registry/repositories/2/tags?per_page=4', { as: 'user' });
    expect([list.status, list.headers['x-total'], names(list.json)]).toEqual([200, '6', ['build-1', 'build-2', 'build-3', 'build-4']]);
    const keyset = await c.call('/projects/1/registry/repositories/2/tags?pagination=keyset&per_page=4&sort=desc', { as: 'user' });
    expect(names(keyset.json)).toEqual(['stable', 'latest', 'build-4', 'build-3']);
    expect(keyset.headers.link).toMatch(/last=build-3&pagination=keyset&per_page=4&sort=desc>; rel="next"$/);
    const tag = await c.call('/projects/1/registry/repositories/2/tags/stable', { as: 'user' });
    expect(tag.json).toMatchObject({ name: 'stable', short_revision: tag.json.revision.slice(0, 9), total_size: expect.any(Number) });
    expect(tag.json.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Date.parse(tag.json.created_at)).toBeLessThan(now - 19 * DAY);
  });

  it('answers the service’s 404s: another project’s repository, a tag that is not there, a repository id that is no integer', async () => {
    expect((await c.call('/projects/1/registry/repositories/3/tags', { as: 'user' })).json).toEqual({ message: '404 Not found' });
    expect((await c.call('/projects/1/registry/repositories/2/tags/nope', { as: 'user' })).json).toEqual({ message: '404 Tag Not Found' });
    expect((await c.call('/projects/1/registry/repositories/x/tags', { as: 'user' })).json).toEqual({ error: 'repository_id is invalid' });
  });
});

describe('DELETE …/tags/:tag_name and the bulk DELETE …/tags', () => {
  it('deletes one tag (200) for a developer, refuses a reporter, and answers 400 for a tag that is not there', async () => {
    const reporter = await member(5, 20);
    const refused = await c.call('/projects/2/registry/repositories/4/tags/stable', { ...asUser(reporter), method: 'DELETE' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const done = await c.call('/projects/2/registry/repositories/4/tags/stable', { as: 'user', method: 'DELETE' });
    expect([done.status, done.text]).toEqual([200, '200']);
    const again = await c.call('/projects/2/registry/repositories/4/tags/stable', { as: 'user', method: 'DELETE' });
    expect([again.status, again.json]).toEqual([400, { message: '400 Bad request' }]);
  });

  it('checks the parameters, accepts (202), deletes later as CleanupTagsService, and refuses a second within the hour', async () => {
    const bulk = (json: Record<string, unknown>) =>
      c.call('/projects/5/registry/repositories/9/tags', { as: 'admin', method: 'DELETE', json });
    expect((await bulk({ keep_n: 1 })).json).toEqual({
      error: 'name_regex, name_regex_delete are missing, at least one parameter must be provided',
    });
    expect((await bulk({ name_regex_delete: '(' })).json.error).toMatch(/^name_regex_delete is an invalid regexp: /);
    const accepted = await bulk({ name_regex_delete: '.*', name_regex_keep: 'v1\\..*', keep_n: 2, older_than: '7d' });
    expect([accepted.status, accepted.text]).toEqual([202, '202']);
    const listed = async () => names((await c.call('/projects/5/registry/repositories/9/tags?per_page=50', { as: 'admin' })).json);
    expect((await listed()).length).toBe(13);
    now += 1000;
    // Kept: latest, v1.*, the two newest other candidates (main, dev-8); the rest is older than 7 days.
    expect(await listed()).toEqual(['dev-8', 'latest', 'main', 'v1.0.0', 'v1.1.0']);
    const repository = (await c.call('/projects/5/registry/repositories', { as: 'admin' })).json[0];
    expect(repository.cleanup_policy_started_at).not.toBeNull();
    const second = await bulk({ name_regex: '.*' });
    expect([second.status, second.json]).toEqual([
      400,
      { message: 'This request has already been made. You can run this at most once an hour for a given container repository' },
    ]);
    now += 3_600_000;
    expect((await bulk({ name_regex: 'nothing' })).status).toBe(202);
  });
});

describe('GET /registry/repositories/:id, GET /groups/:id/registry/repositories', () => {
  it('answers one repository by id (tags, tags_count, size when asked), 403 without read_container_image, 404 Not found for none', async () => {
    const one = await c.call('/registry/repositories/3?tags_count=true&size=true', { as: 'user' });
    expect(one.status).toBe(200);
    expect(one.json).toEqual({
      id: 3,
      name: '',
      path: one.json.path,
      project_id: 2,
      location: `127.0.0.1:5050/${one.json.path}`,
      created_at: one.json.created_at,
      cleanup_policy_started_at: null,
      tags_count: 13,
      status: null,
      size: null,
    });
    const plain = await c.call('/registry/repositories/4', { as: 'admin' });
    expect([plain.json.name, 'tags' in plain.json, 'tags_count' in plain.json, 'size' in plain.json]).toEqual([
      'worker',
      false,
      false,
      false,
    ]);
    expect((await c.call('/registry/repositories/3', { as: 'readApi' })).status).toBe(200);
    const guest = await c.call('/registry/repositories/3', asUser((await c.call('/users/4', { as: 'admin' })).json.username));
    expect([guest.status, guest.json]).toEqual([403, { message: '403 Forbidden' }]);
    const none = await c.call('/registry/repositories/999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
    expect((await c.call('/registry/repositories/3')).status).toBe(401);
  });

  it('lists the repositories of every project under a group, by id, without tags', async () => {
    const r = await c.call('/groups/globex/registry/repositories', { as: 'admin' });
    expect([r.status, r.json.map((x: { id: number }) => x.id), r.headers['x-total']]).toEqual([200, [9, 10, 11, 12], '4']);
    expect(r.json.every((x: Record<string, unknown>) => !('tags' in x) && !('tags_count' in x))).toBe(true);
    const unknown = await c.call('/groups/no-such-group/registry/repositories', { as: 'admin' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Group Not Found' }]);
  });
});

describe('DELETE /projects/:id/registry/repositories/:repository_id', () => {
  it('schedules the deletion (202, body 202): delete_scheduled until the worker runs, then gone', async () => {
    const reporter = await c.call('/projects/6/members', { as: 'admin', method: 'POST', json: { user_id: 9, access_level: 20 } });
    expect(reporter.status).toBe(201);
    const refused = await c.call('/projects/6/registry/repositories/12', { ...asUser(reporter.json.username), method: 'DELETE' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const accepted = await c.call('/projects/6/registry/repositories/12', { as: 'admin', method: 'DELETE' });
    expect([accepted.status, accepted.text]).toEqual([202, '202']);
    const scheduled = await c.call('/projects/6/registry/repositories', { as: 'admin' });
    expect(scheduled.json.map((x: { id: number; status: string | null }) => [x.id, x.status])).toEqual([
      [11, null],
      [12, 'delete_scheduled'],
    ]);
    now += 1000;
    const after = await c.call('/projects/6/registry/repositories', { as: 'admin' });
    expect(after.json.map((x: { id: number }) => x.id)).toEqual([11]);
    expect((await c.call('/registry/repositories/12', { as: 'admin' })).status).toBe(404);
    const again = await c.call('/projects/6/registry/repositories/12', { as: 'admin', method: 'DELETE' });
    expect([again.status, again.json]).toEqual([404, { message: '404 Not found' }]);
  });
});
