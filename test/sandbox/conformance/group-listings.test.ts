// Groups: service-endpoints.md §9 (subgroups, descendant groups, a group's projects), one test per fact.
import { describe, expect, it } from 'vitest';
import { ids, useSandbox } from './setup.js';

const c = useSandbox({ projects: 30 });

const acmeTree = () =>
  Array.from({ length: 20 }, (_, i) => c.sb.state.group(i + 1))
    .filter((g) => g?.fullPath.startsWith('acme/'))
    .map((g) => g!.id);

/** Ids of the projects in these groups, newest first. */
const projectsIn = (groups: number[]) =>
  Array.from({ length: 30 }, (_, i) => c.sb.state.project(30 - i)!)
    .filter((p) => p.nsKind === 'group' && groups.includes(p.nsOwner))
    .map((p) => p.id);

describe('endpoints §9 GET /groups/:id/subgroups and /descendant_groups', () => {
  it('lists the direct children only', async () => {
    const r = await c.call('/groups/4/subgroups', { as: 'admin' });
    expect([r.status, ids(r)]).toEqual([200, [5]]);
  });

  it('lists every level below with /descendant_groups', async () => {
    const r = await c.call('/groups/1/descendant_groups?per_page=100', { as: 'admin' });
    expect([...ids(r)].sort((a, b) => a - b)).toEqual(acmeTree());
  });

  it('answers 404 Group Not Found for an unknown group', async () => {
    const r = await c.call('/groups/9999/subgroups', { as: 'admin' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Group Not Found' }]);
  });
});

describe('endpoints §9 GET /groups/:id/projects', () => {
  it('leaves subgroups out by default (include_subgroups default false)', async () => {
    const r = await c.call('/groups/1/projects?with_shared=false&per_page=100', { as: 'admin' });
    expect(ids(r)).toEqual(projectsIn([1]));
  });

  it('includes subgroup projects with include_subgroups=true, newest first', async () => {
    const r = await c.call('/groups/1/projects?include_subgroups=true&with_shared=false&per_page=100', { as: 'admin' });
    expect(ids(r)).toEqual(projectsIn([1, ...acmeTree()]));
  });
});
