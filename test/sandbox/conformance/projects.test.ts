// Projects: service-behaviour.md §6 (entities), service-endpoints.md §0 (enums) and §8,
// and the /projects list parameters of issue #12.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox();

const BASIC_KEYS = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
];

/** Every project the admin sees, newest first (the default order). */
async function everyProject(): Promise<Array<Record<string, any>>> {
  return (await c.call('/projects?per_page=100', { as: 'admin' })).json;
}

describe('§6 project entities', () => {
  it('gives anonymous list callers the basic entity', async () => {
    const r = await c.call('/projects?per_page=1');
    expect(Object.keys(r.json[0])).toEqual(BASIC_KEYS);
  });

  it('gives simple=true the basic entity', async () => {
    const r = await c.call('/projects?per_page=1&simple=true', { as: 'user' });
    expect(Object.keys(r.json[0])).toEqual(BASIC_KEYS);
  });

  it('adds repository_storage to the basic entity for admins only', async () => {
    const r = await c.call('/projects?per_page=1&simple=true', { as: 'admin' });
    expect(Object.keys(r.json[0])).toEqual([...BASIC_KEYS, 'repository_storage']);
  });

  it('carries permissions on authenticated project reads', async () => {
    const r = await c.call('/projects/2', { as: 'user' });
    expect(r.json.permissions).toEqual({ project_access: null, group_access: { access_level: 40, notification_level: 3 } });
  });

  it('carries no permissions on anonymous reads', async () => {
    const r = await c.call('/projects/1');
    expect(r.status).toBe(200);
    expect('permissions' in r.json).toBe(false);
  });

  it('adds statistics with statistics=true for members', async () => {
    const r = await c.call('/projects/2?statistics=true', { as: 'user' });
    expect(Object.keys(r.json.statistics)).toEqual([
      'commit_count',
      'storage_size',
      'repository_size',
      'wiki_size',
      'lfs_objects_size',
      'job_artifacts_size',
      'pipeline_artifacts_size',
      'packages_size',
      'snippets_size',
      'uploads_size',
      'container_registry_size',
    ]);
  });
});

describe('§0 project list enums', () => {
  it('accepts order_by=star_count, most stars first', async () => {
    const all = await everyProject();
    const expected = [...all].sort((a, b) => b.star_count - a.star_count || b.id - a.id).map((p) => p.id);
    const r = await c.call('/projects?per_page=100&order_by=star_count', { as: 'admin' });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected);
  });

  it('accepts order_by=similarity with search, exact path first', async () => {
    const p = (await everyProject()).find((x) => x.id === 7)!;
    const r = await c.call(`/projects?order_by=similarity&search=${p.path}`, { as: 'admin' });
    expect(r.status).toBe(200);
    expect(ids(r)[0]).toBe(7);
  });

  it('refuses an unknown order_by', async () => {
    const r = await c.call('/projects?order_by=storage_size', { as: 'admin' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('refuses min_access_level outside the access levels', async () => {
    const r = await c.call('/projects?min_access_level=25', { as: 'user' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'min_access_level does not have a valid value' });
  });
});

describe('project list filters filter', () => {
  it('archived=true lists archived projects only, archived=false the others', async () => {
    const all = await everyProject();
    const yes = await c.call('/projects?per_page=100&archived=true', { as: 'admin' });
    const no = await c.call('/projects?per_page=100&archived=false', { as: 'admin' });
    expect(ids(yes)).toEqual(all.filter((p) => p.archived).map((p) => p.id));
    expect(ids(no)).toEqual(all.filter((p) => !p.archived).map((p) => p.id));
    expect(ids(yes).length + ids(no).length).toBe(30);
  });

  it('membership=true lists the projects where the caller has a role', async () => {
    const r = await c.call('/projects?per_page=100&membership=true', { as: 'user' });
    const visible = (await c.call('/projects?per_page=100', { as: 'user' })).json as Array<Record<string, any>>;
    const members = visible.filter((p) => p.permissions.project_access || p.permissions.group_access).map((p) => p.id);
    expect(ids(r)).toEqual(members);
  });

  it('owned=true lists only projects the caller owns, not every membership', async () => {
    const created = await c.call('/projects', { as: 'user', method: 'POST', json: { name: 'owned-by-jdoe' } });
    const r = await c.call('/projects?per_page=100&owned=true', { as: 'user' });
    const visible = (await c.call('/projects?per_page=100', { as: 'user' })).json as Array<Record<string, any>>;
    const owned = visible
      .filter((p) => p.permissions.project_access?.access_level === 50 || p.permissions.group_access?.access_level === 50)
      .map((p) => p.id);
    expect(ids(r)).toEqual(owned);
    expect(ids(r)).toContain(created.json.id);
    expect(ids(r)).not.toContain(2);
  });

  it('min_access_level=40 lists projects where the caller is maintainer or owner', async () => {
    const r = await c.call('/projects?per_page=100&min_access_level=40', { as: 'user' });
    const visible = (await c.call('/projects?per_page=100', { as: 'user' })).json as Array<Record<string, any>>;
    const level = (p: Record<string, any>) =>
      Math.max(p.permissions.project_access?.access_level ?? 0, p.permissions.group_access?.access_level ?? 0);
    expect(ids(r)).toEqual(visible.filter((p) => level(p) >= 40).map((p) => p.id));
  });

  it('search matches name, path and description, case-insensitively', async () => {
    const all = await everyProject();
    const r = await c.call('/projects?per_page=100&search=SERVICE', { as: 'admin' });
    const expected = all
      .filter((p) => [p.name, p.path, p.description ?? ''].some((f: string) => f.toLowerCase().includes('service')))
      .map((p) => p.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(ids(r)).toEqual(expected);
  });

  it('search shorter than 3 characters matches a whole field only', async () => {
    const r = await c.call('/projects?per_page=100&search=1', { as: 'admin' });
    expect(ids(r)).toEqual([]);
  });

  it('search_namespaces=true also matches the namespace path', async () => {
    const all = await everyProject();
    const r = await c.call('/projects?per_page=100&search=platform&search_namespaces=true', { as: 'admin' });
    expect(ids(r)).toEqual(all.filter((p) => p.path_with_namespace.toLowerCase().includes('platform')).map((p) => p.id));
    const plain = await c.call('/projects?per_page=100&search=platform', { as: 'admin' });
    expect(ids(plain)).toEqual([]);
  });

  it('topic lists projects having every topic given', async () => {
    const all = await everyProject();
    const r = await c.call('/projects?per_page=100&topic=api,web', { as: 'admin' });
    expect(ids(r)).toEqual(all.filter((p) => p.topics.includes('api') && p.topics.includes('web')).map((p) => p.id));
  });

  it('last_activity_after and last_activity_before bound last_activity_at, inclusive', async () => {
    const all = await everyProject();
    const mid = all[10]!.last_activity_at as string;
    const after = await c.call(`/projects?per_page=100&last_activity_after=${mid}`, { as: 'admin' });
    const before = await c.call(`/projects?per_page=100&last_activity_before=${mid}`, { as: 'admin' });
    expect(ids(after)).toEqual(all.filter((p) => p.last_activity_at >= mid).map((p) => p.id));
    expect(ids(before)).toEqual(all.filter((p) => p.last_activity_at <= mid).map((p) => p.id));
  });

  it('with_issues_enabled and with_merge_requests_enabled filter on those features', async () => {
    const all = await everyProject();
    const issues = await c.call('/projects?per_page=100&with_issues_enabled=true', { as: 'admin' });
    const mrs = await c.call('/projects?per_page=100&with_merge_requests_enabled=true', { as: 'admin' });
    expect(ids(issues)).toEqual(all.filter((p) => p.issues_enabled).map((p) => p.id));
    expect(ids(mrs)).toEqual(all.filter((p) => p.merge_requests_enabled).map((p) => p.id));
  });

  it('starred=true lists a subset of the visible projects for a signed-in caller', async () => {
    const r = await c.call('/projects?per_page=100&starred=true', { as: 'user' });
    const again = await c.call('/projects?per_page=100&starred=true', { as: 'user' });
    expect(ids(r)).toEqual(ids(again));
    expect(ids(r).length).toBeLessThan(30);
  });
});

describe('endpoints §8 POST /projects', () => {
  it('takes namespace_id as an integer only', async () => {
    const r = await c.call('/projects', { as: 'admin', method: 'POST', json: { name: 'x1', namespace_id: 'acme' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'namespace_id is invalid' });
  });

  it('creates in the namespace of an integer namespace_id', async () => {
    const r = await c.call('/projects', { as: 'admin', method: 'POST', json: { name: 'x2', namespace_id: 1 } });
    expect(r.status).toBe(201);
    expect(r.json.path_with_namespace).toBe('acme/x2');
  });

  it('has no namespace parameter: it is ignored like any unknown parameter', async () => {
    const r = await c.call('/projects', { as: 'user', method: 'POST', json: { name: 'x3', namespace: 'acme' } });
    expect(r.status).toBe(201);
    expect(r.json.path_with_namespace).toBe('jdoe/x3');
  });
});
