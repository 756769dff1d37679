// Commits: service-endpoints.md §7 (Commits).
import { describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });

describe('§7 commits', () => {
  it('GET …/commits/:sha takes a short SHA and answers the commit with stats, status, project_id, last_pipeline', async () => {
    const [head] = (await c.call('/projects/2/repository/commits?per_page=1', { as: 'user' })).json as Array<{ id: string }>;
    const r = await c.call(`/projects/2/repository/commits/${head!.id.slice(0, 7)}`, { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: head!.id,
      short_id: head!.id.slice(0, 8),
      stats: { additions: 3, deletions: 1, total: 4 },
      project_id: 2,
    });
    expect([r.json.status, r.json.last_pipeline]).toEqual([null, null]);
  });

  it('a fork of a seeded project has no commit dated after its creation, on any branch', async () => {
    const made = await c.call('/projects/1/fork', { as: 'user', method: 'POST', json: { name: 'fresh-history', path: 'fresh-history' } });
    expect(made.status).toBe(201);
    const created = Date.parse(made.json.created_at as string);
    const all = await c.call(`/projects/${made.json.id}/repository/commits?all=true&per_page=100`, { as: 'user' });
    const dates = (all.json as Array<{ committed_date: string }>).map((commit) => Date.parse(commit.committed_date));
    expect(dates.length).toBe(27);
    expect(dates.filter((at) => at > created)).toEqual([]);
  });

  it('GET …/commits/:sha of an unknown commit: 404 {"message":"404 Commit Not Found"}', async () => {
    const r = await c.call('/projects/2/repository/commits/deadbeef', { as: 'user' });
    expect([r.status, r.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('GET …/commits/:sha accepts a job token of the project', async () => {
    const r = await req(c.sb.url, '/api/v4/projects/2/repository/commits/main', { headers: { 'JOB-TOKEN': c.sb.tokens.job } });
    expect(r.status).toBe(200);
  });

  it('the list is never counted: no X-Total, X-Total-Pages or rel="last"; X-Next-Page whenever a page is full', async () => {
    const r = await c.call('/projects/2/repository/commits?per_page=12', { as: 'user' });
    expect(r.json.length).toBe(12);
    expect([r.headers['x-total'], r.headers['x-total-pages'], r.headers['x-next-page']]).toEqual([undefined, undefined, '2']);
    expect(r.headers.link).not.toContain('rel="last"');
    const after = await c.call('/projects/2/repository/commits?per_page=12&page=2', { as: 'user' });
    expect([after.json, after.headers['x-next-page']]).toEqual([[], '']);
  });

  it('a branch created through the API lists the history of the commit it started at', async () => {
    await c.call('/projects/2/repository/branches', { as: 'user', method: 'POST', json: { branch: 'topic/c', ref: 'v1.0.0' } });
    const tag = await c.call('/projects/2/repository/tags/v1.0.0', { as: 'user' });
    const r = await c.call('/projects/2/repository/commits?ref_name=topic%2Fc', { as: 'user' });
    expect([r.json[0].id, r.json.length]).toEqual([tag.json.commit.id, 5]);
  });
});

describe('git revisions: `~N` and `^` walk back first parents wherever a ref is read', () => {
  it('GET …/commits/main~2, main^, main^^ and main~0 name the ancestors; ^2 names none (one parent)', async () => {
    const line = (await c.call('/projects/2/repository/commits?ref_name=main&per_page=3', { as: 'user' })).json as Array<{ id: string }>;
    const at = async (rev: string) => c.call(`/projects/2/repository/commits/${encodeURIComponent(rev)}`, { as: 'user' });
    expect((await at('main~0')).json.id).toBe(line[0]!.id);
    expect((await at('main^')).json.id).toBe(line[1]!.id);
    expect((await at('main~2')).json.id).toBe(line[2]!.id);
    expect((await at('main^^')).json.id).toBe(line[2]!.id);
    expect((await at(`${line[0]!.id.slice(0, 8)}~1`)).json.id).toBe(line[1]!.id);
    const none = await at('main^2');
    expect([none.status, none.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('GET …/repository/compare?from=main~2&to=main lists the two commits between', async () => {
    const line = (await c.call('/projects/2/repository/commits?ref_name=main&per_page=2', { as: 'user' })).json as Array<{ id: string }>;
    const r = await c.call('/projects/2/repository/compare?from=main~2&to=main', { as: 'user' });
    expect([r.status, r.json.commits.map((x: { id: string }) => x.id)]).toEqual([200, [line[1]!.id, line[0]!.id]]);
    const unknown = await c.call('/projects/2/repository/compare?from=nope~2&to=main', { as: 'user' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Ref Not Found' }]);
  });
});
