// POST /projects creates an empty repository unless `initialize_with_readme` (gitlab-org/gitlab
// lib/api/helpers/projects_helpers.rb `optional_create_project_params_ce`; lib/api/commits.rb
// `not_found! 'Repository'` when the repository has no commit; lib/api/entities/project.rb `empty_repo`,
// `readme_url`). The first file commit creates its branch, which becomes the default one.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const post = (path: string, json: unknown) => c.call(path, { as: 'user', method: 'POST', json });

describe('POST /projects without initialize_with_readme: an empty repository', () => {
  it('is empty_repo with no readme_url, no branches, no tags; commits answer 404 Repository Not Found', async () => {
    const made = await post('/projects', { name: 'blank' });
    expect([made.status, made.json.empty_repo, made.json.readme_url]).toEqual([201, true, null]);
    const id = made.json.id as number;
    const branches = await c.call(`/projects/${id}/repository/branches`, { as: 'user' });
    const tags = await c.call(`/projects/${id}/repository/tags`, { as: 'user' });
    expect([branches.status, branches.json, tags.status, tags.json]).toEqual([200, [], 200, []]);
    for (const path of ['/repository/commits', '/repository/commits/main']) {
      const r = await c.call(`/projects/${id}${path}`, { as: 'user' });
      expect([path, r.status, r.json]).toEqual([path, 404, { message: '404 Repository Not Found' }]);
    }
    const file = await c.call(`/projects/${id}/repository/files/README.md/raw?ref=main`, { as: 'user' });
    expect([file.status, file.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('the first file commit creates the branch, makes it the default, and is the one commit', async () => {
    const id = (await post('/projects', { name: 'first-commit' })).json.id as number;
    const w = await post(`/projects/${id}/repository/files/notes.md`, { branch: 'trunk', content: 'hi', commit_message: 'Add notes' });
    expect([w.status, w.json]).toEqual([201, { file_path: 'notes.md', branch: 'trunk' }]);
    const p = await c.call(`/projects/${id}`, { as: 'user' });
    expect([p.json.empty_repo, p.json.default_branch, p.json.readme_url]).toEqual([false, 'trunk', null]);
    const commits = await c.call(`/projects/${id}/repository/commits?ref_name=trunk`, { as: 'user' });
    expect(
      commits.json.map((x: { title: string; parent_ids: string[]; author_name: string }) => [x.title, x.parent_ids, x.author_name]),
    ).toEqual([['Add notes', [], 'Jane Doe']]);
    const raw = await c.call(`/projects/${id}/repository/files/notes.md/raw?ref=trunk`, { as: 'user' });
    expect([raw.status, raw.text]).toEqual([200, 'hi']);
    const second = await post(`/projects/${id}/repository/files/b.txt`, { branch: 'trunk', content: 'b', commit_message: 'Add b' });
    expect(second.status).toBe(201);
    const after = await c.call(`/projects/${id}/repository/commits?ref_name=trunk`, { as: 'user' });
    expect(after.json.map((x: { title: string }) => x.title)).toEqual(['Add b', 'Add notes']);
    const other = await post(`/projects/${id}/repository/files/c.txt`, { branch: 'nope', content: 'c', commit_message: 'c' });
    expect([other.status, other.json]).toEqual([400, { message: 'You can only create or edit files when you are on a branch' }]);
  });

  it('with initialize_with_readme: one commit adding README.md on main', async () => {
    const made = await post('/projects', { name: 'with-readme', initialize_with_readme: true });
    expect([made.json.empty_repo, made.json.readme_url]).toEqual([
      false,
      `${c.sb.url}/${made.json.path_with_namespace}/-/blob/main/README.md`,
    ]);
    const id = made.json.id as number;
    const branches = await c.call(`/projects/${id}/repository/branches`, { as: 'user' });
    expect(branches.json.map((b: { name: string }) => b.name)).toEqual(['main']);
    const commits = await c.call(`/projects/${id}/repository/commits`, { as: 'user' });
    expect(commits.json.map((x: { title: string }) => x.title)).toEqual(['Initial commit']);
    const tree = await c.call(`/projects/${id}/repository/tree`, { as: 'user' });
    expect(tree.json.map((e: { path: string }) => e.path)).toEqual(['README.md']);
  });

  it('seeded projects keep their synthetic repository, and a fork of one gets it too', async () => {
    const seeded = await c.call('/projects/1', { as: 'user' });
    expect(seeded.json.empty_repo).toBe(false);
    const fork = await post('/projects/1/fork', { name: 'fork-one', path: 'fork-one' });
    const branches = await c.call(`/projects/${fork.json.id}/repository/branches`, { as: 'user' });
    expect(branches.json.map((b: { name: string }) => b.name)).toEqual([
      'develop',
      'fail/broken-build',
      'feature/login',
      'feature/search-v2',
      'fix/issue-1',
      'main',
    ]);
  });
});
