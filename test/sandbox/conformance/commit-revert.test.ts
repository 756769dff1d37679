// Reverting a commit: lib/api/commits.rb `revert` (`branch` required, `dry_run`), Commits::RevertService
// (the `Revert "<title>"` commit, its message), and the 400 with `error_code` `empty` or `conflict`.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 3 });
const post = (path: string, json: Record<string, unknown>) => c.call(path, { as: 'admin', method: 'POST', json });
const raw = async (path: string) =>
  (await c.call(`/projects/1/repository/files/${encodeURIComponent(path)}/raw?ref=main`, { as: 'admin' })).text;
const CANNOT =
  'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.';

describe('POST /projects/:id/repository/commits/:sha/revert', () => {
  it('puts back what a commit replaced, once; a dry run only checks', async () => {
    const readme = await raw('README.md');
    const made = await post('/projects/1/repository/commits', {
      branch: 'main',
      commit_message: 'Rewrite the readme',
      actions: [
        { action: 'update', file_path: 'README.md', content: '# new\n' },
        { action: 'create', file_path: 'NOTES.md', content: 'notes\n' },
      ],
    });
    expect(made.status).toBe(201);
    expect((await post(`/projects/1/repository/commits/${made.json.id}/revert`, { branch: 'main', dry_run: true })).json).toEqual({
      dry_run: 'success',
    });
    expect(await raw('README.md')).toBe('# new\n');
    const reverted = await post(`/projects/1/repository/commits/${made.json.id}/revert`, { branch: 'main' });
    expect([reverted.status, reverted.json.title, reverted.json.message, reverted.json.parent_ids]).toEqual([
      201,
      'Revert "Rewrite the readme"',
      `Revert "Rewrite the readme"\n\nThis reverts commit ${made.json.id}.\n`,
      [made.json.id],
    ]);
    expect(await raw('README.md')).toBe(readme);
    expect((await c.call('/projects/1/repository/files/NOTES.md?ref=main', { as: 'admin' })).status).toBe(404);
    expect((await post(`/projects/1/repository/commits/${made.json.id}/revert`, { branch: 'main' })).json).toEqual({
      message: CANNOT,
      error_code: 'empty',
    });
    const again = await post(`/projects/1/repository/commits/${reverted.json.id}/revert`, { branch: 'main' });
    expect([again.status, await raw('README.md')]).toEqual([201, '# new\n']);
  });

  it('answers the conflict, a missing branch parameter, an unknown commit and an unknown branch as the service does', async () => {
    const seeded = (await c.call('/projects/2/repository/commits?ref_name=main&per_page=2', { as: 'admin' })).json[1].id as string;
    expect((await post(`/projects/2/repository/commits/${seeded}/revert`, { branch: 'main' })).json).toEqual({
      message: CANNOT,
      error_code: 'conflict',
    });
    expect((await post(`/projects/2/repository/commits/${seeded}/revert`, {})).json).toEqual({ error: 'branch is missing' });
    expect((await post(`/projects/2/repository/commits/${'f'.repeat(40)}/revert`, { branch: 'main' })).json).toEqual({
      message: '404 Commit Not Found',
    });
    expect((await post(`/projects/2/repository/commits/${seeded}/revert`, { branch: 'nope' })).json).toEqual({
      message: '404 Branch Not Found',
    });
  });
});

describe('GET …/commits/:sha/diff and POST …/commits/:sha/cherry_pick (lib/api/commits.rb)', () => {
  it('diffs a commit made through the API file by file; a seeded one names the path it touched with an empty diff', async () => {
    const made = await post('/projects/2/repository/commits', {
      branch: 'main',
      commit_message: 'Two files',
      actions: [
        { action: 'create', file_path: 'b.txt', content: 'one\ntwo\n' },
        { action: 'create', file_path: 'a.txt', content: 'x\n' },
      ],
    });
    const diff = await c.call(`/projects/2/repository/commits/${made.json.id}/diff`, { as: 'admin' });
    expect([diff.status, diff.headers['x-total']]).toEqual([200, '2']);
    expect(diff.json[0]).toEqual({
      old_path: 'a.txt',
      new_path: 'a.txt',
      a_mode: '0',
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
      generated_file: false,
      diff: '@@ -0,0 +1,1 @@\n+x\n',
      collapsed: false,
      too_large: false,
    });
    expect(diff.json[1].diff).toBe('@@ -0,0 +1,2 @@\n+one\n+two\n');
    const seeded = (await c.call('/projects/3/repository/commits?per_page=1', { as: 'admin' })).json[0];
    const touched = await c.call(`/projects/3/repository/commits/${seeded.id}/diff`, { as: 'admin' });
    expect(touched.json.map((d: { new_path: string; diff: string; new_file: boolean }) => [d.diff, d.new_file])).toEqual([['', false]]);
    const none = await c.call(`/projects/3/repository/commits/${'0'.repeat(40)}/diff`, { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('cherry-picks a commit onto another branch (201, the Commit entity), once; a dry run only checks', async () => {
    await post('/projects/2/repository/branches', { branch: 'pick-to', ref: 'main' });
    const made = await post('/projects/2/repository/commits', {
      branch: 'main',
      commit_message: 'Pick me',
      actions: [{ action: 'create', file_path: 'picked.txt', content: 'picked\n' }],
    });
    const dry = await post(`/projects/2/repository/commits/${made.json.id}/cherry_pick`, { branch: 'pick-to', dry_run: true });
    expect([dry.status, dry.json]).toEqual([200, { dry_run: 'success' }]);
    const picked = await post(`/projects/2/repository/commits/${made.json.id}/cherry_pick`, { branch: 'pick-to' });
    expect([picked.status, picked.json.title, picked.json.message, 'stats' in picked.json]).toEqual([
      201,
      'Pick me',
      `Pick me\n\n(cherry picked from commit ${made.json.id})\n`,
      false,
    ]);
    const file = await c.call('/projects/2/repository/files/picked.txt/raw?ref=pick-to', { as: 'admin' });
    expect(file.text).toBe('picked\n');
    const again = await post(`/projects/2/repository/commits/${made.json.id}/cherry_pick`, { branch: 'pick-to' });
    expect([again.status, again.json.error_code]).toEqual([400, 'empty']);
    expect(again.json.message).toMatch(/^Sorry, we cannot cherry-pick this commit automatically\./);
    const noBranch = await post(`/projects/2/repository/commits/${made.json.id}/cherry_pick`, {});
    expect([noBranch.status, noBranch.json]).toEqual([400, { error: 'branch is missing' }]);
  });
});

describe('`:sha` names a commit by SHA, branch, tag or revision, as `user_project.commit` reads it', () => {
  it('cherry-picks a branch’s head by the branch name and reverts main’s head by `main`', async () => {
    await post('/projects/3/repository/branches', { branch: 'by-name', ref: 'main' });
    const made = await post('/projects/3/repository/commits', {
      branch: 'by-name',
      commit_message: 'On a branch',
      actions: [{ action: 'create', file_path: 'by-name.txt', content: 'x\n' }],
    });
    const picked = await post('/projects/3/repository/commits/by-name/cherry_pick', { branch: 'main' });
    expect([picked.status, picked.json.message]).toEqual([201, `On a branch\n\n(cherry picked from commit ${made.json.id})\n`]);
    const reverted = await post('/projects/3/repository/commits/main/revert', { branch: 'main' });
    expect([reverted.status, reverted.json.title]).toEqual([201, 'Revert "On a branch"']);
    const diff = await c.call('/projects/3/repository/commits/main~1/diff', { as: 'admin' });
    expect(diff.json.map((d: { new_path: string; new_file: boolean }) => [d.new_path, d.new_file])).toEqual([['by-name.txt', true]]);
  });
});
