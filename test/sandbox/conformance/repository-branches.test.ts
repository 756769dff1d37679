// Branch writes, `regex` and Gitaly keyset pages: service-endpoints.md §7 (Branches).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const names = (r: { json: Array<{ name: string }> }) => r.json.map((b) => b.name);

describe('§7 branches: create and delete', () => {
  it('POST creates the branch at the ref: 201 with the branch', async () => {
    const r = await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: { branch: 'topic/a', ref: 'develop' } });
    const develop = await c.call('/projects/1/repository/branches/develop', { as: 'user' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'topic/a', default: false, protected: false, commit: { id: develop.json.commit.id } });
  });

  it('POST without branch and ref: 400 {"error":"branch is missing, ref is missing"}', async () => {
    const r = await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: {} });
    expect([r.status, r.json]).toEqual([400, { error: 'branch is missing, ref is missing' }]);
  });

  it('POST of an existing name: 400 {"message":"Branch already exists"}', async () => {
    const r = await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: { branch: 'main', ref: 'develop' } });
    expect([r.status, r.json]).toEqual([400, { message: 'Branch already exists' }]);
  });

  it('POST from an unknown ref: 400 {"message":"Invalid reference name: <ref>"}', async () => {
    const r = await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: { branch: 'x', ref: 'nope' } });
    expect([r.status, r.json]).toEqual([400, { message: 'Invalid reference name: nope' }]);
  });

  it('GET of a name git refuses: 400 {"message":"The branch refname is invalid"}', async () => {
    const r = await c.call('/projects/1/repository/branches/a..b', { as: 'user' });
    expect([r.status, r.json]).toEqual([400, { message: 'The branch refname is invalid' }]);
  });

  it('DELETE answers 204, then 404 Branch Not Found', async () => {
    await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: { branch: 'topic/b', ref: 'main' } });
    const r = await c.call('/projects/1/repository/branches/topic%2Fb', { as: 'user', method: 'DELETE' });
    expect([r.status, r.text]).toEqual([204, '']);
    const again = await c.call('/projects/1/repository/branches/topic%2Fb', { as: 'user', method: 'DELETE' });
    expect([again.status, again.json]).toEqual([404, { message: '404 Branch Not Found' }]);
  });

  it('DELETE of the default branch: 405 {"message":"Cannot remove HEAD branch"}', async () => {
    const r = await c.call('/projects/1/repository/branches/main', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([405, { message: 'Cannot remove HEAD branch' }]);
  });

  it('DELETE of a protected branch: 405 {"message":"Protected branch cant be removed"}', async () => {
    await c.call('/projects/1/repository/branches', { as: 'user', method: 'POST', json: { branch: 'release/2', ref: 'main' } });
    const r = await c.call('/projects/1/repository/branches/release%2F2', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([405, { message: 'Protected branch cant be removed' }]);
  });

  it('a deleted seeded branch leaves the list; its name created again is listed once, and can be deleted again', async () => {
    expect((await c.call('/projects/3/repository/branches/fix%2Fissue-1', { as: 'user', method: 'DELETE' })).status).toBe(204);
    expect(names(await c.call('/projects/3/repository/branches', { as: 'user' }))).not.toContain('fix/issue-1');
    const r = await c.call('/projects/3/repository/branches', { as: 'user', method: 'POST', json: { branch: 'fix/issue-1', ref: 'main' } });
    const main = await c.call('/projects/3/repository/branches/main', { as: 'user' });
    expect([r.status, r.json.commit.id]).toEqual([201, main.json.commit.id]);
    expect(names(await c.call('/projects/3/repository/branches?search=^fix/', { as: 'user' }))).toEqual(['fix/issue-1']);
    expect((await c.call('/projects/3/repository/branches/fix%2Fissue-1', { as: 'user', method: 'DELETE' })).status).toBe(204);
    expect(names(await c.call('/projects/3/repository/branches?search=^fix/', { as: 'user' }))).toEqual([]);
  });

  it('a reader who is not a member of a public project may not create: 403', async () => {
    const r = await c.call('/projects/4/repository/branches', { as: 'user', method: 'POST', json: { branch: 'x', ref: 'main' } });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('§7 branches: regex and keyset pages', () => {
  it('regex filters names', async () => {
    expect(names(await c.call('/projects/2/repository/branches?regex=%5Efe.*n%24', { as: 'user' }))).toEqual(['feature/login']);
  });

  it('pagination=keyset: rel="next" with page_token=<last name> only after a full page, no counts', async () => {
    const first = await c.call('/projects/2/repository/branches?pagination=keyset&per_page=4', { as: 'user' });
    expect(names(first)).toEqual(['develop', 'fail/broken-build', 'feature/login', 'feature/search-v2']);
    expect(first.headers.link).toBe(
      `<${c.sb.url}/api/v4/projects/2/repository/branches?page_token=feature%2Fsearch-v2&pagination=keyset&per_page=4>; rel="next"`,
    );
    expect(first.headers['x-total']).toBeUndefined();
    const second = await c.call('/projects/2/repository/branches?pagination=keyset&per_page=4&page_token=feature%2Fsearch-v2', {
      as: 'user',
    });
    expect(names(second)).toEqual(['fix/issue-1', 'main']);
    expect(second.headers.link).toBeUndefined();
  });
});

describe('pipelines on branches created through the API', () => {
  it('POST /pipeline runs for a created branch (201 at its head) and is refused once it is deleted (400 Reference not found)', async () => {
    const branch = await c.call('/projects/1/repository/branches', {
      as: 'user',
      method: 'POST',
      json: { branch: 'ci/created', ref: 'develop' },
    });
    expect(branch.status).toBe(201);
    const pipeline = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: { ref: 'ci/created' } });
    expect([pipeline.status, pipeline.json.ref, pipeline.json.sha]).toEqual([201, 'ci/created', branch.json.commit.id]);
    const removed = await c.call('/projects/1/repository/branches/ci%2Fcreated', { as: 'user', method: 'DELETE' });
    expect(removed.status).toBe(204);
    const refused = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: { ref: 'ci/created' } });
    expect([refused.status, refused.json]).toEqual([400, { message: { base: ['Reference not found'] } }]);
  });
});

describe('§7 branches: merged, and DELETE …/repository/merged_branches', () => {
  it('a branch whose head the default branch holds is merged; the default branch and diverged ones are not', async () => {
    const made = await c.call('/projects/5/repository/branches', { as: 'admin', method: 'POST', json: { branch: 'at-main', ref: 'main' } });
    expect([made.status, made.json.merged]).toEqual([201, true]);
    const listed = await c.call('/projects/5/repository/branches?per_page=100', { as: 'admin' });
    const merged = Object.fromEntries(listed.json.map((b: { name: string; merged: boolean }) => [b.name, b.merged]));
    expect([merged['at-main'], merged.main, merged.develop]).toEqual([true, false, false]);
  });

  it('deletes the merged branches but protected ones (202 Accepted); a reporter may not (403)', async () => {
    await c.call('/projects/5/repository/branches', { as: 'admin', method: 'POST', json: { branch: 'kept-merged', ref: 'main' } });
    await c.call('/projects/5/protected_branches', { as: 'admin', method: 'POST', json: { name: 'kept-merged' } });
    const before = names(await c.call('/projects/5/repository/branches?per_page=100', { as: 'admin' }));
    const r = await c.call('/projects/5/repository/merged_branches', { as: 'admin', method: 'DELETE' });
    expect([r.status, r.json]).toEqual([202, { message: '202 Accepted' }]);
    const after = names(await c.call('/projects/5/repository/branches?per_page=100', { as: 'admin' }));
    expect(after).toEqual(before.filter((b) => b !== 'at-main'));
    expect(after).toContain('kept-merged');
    const reporter = await c.call('/projects/5/members', { as: 'admin', method: 'POST', json: { user_id: 9, access_level: 20 } });
    expect(reporter.status).toBe(201);
    const refused = await c.call('/projects/5/repository/merged_branches', {
      as: 'admin',
      method: 'DELETE',
      headers: { Sudo: reporter.json.username },
    });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});
