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
