// `POST /projects/:id/repository/commits`: lib/api/commits.rb (Grape params, `authorize_push_to_branch!`, 201 with
// Entities::CommitDetail), app/services/commits/create_service.rb (start branch, existing branch texts),
// lib/gitlab/gitaly_client/operation_service.rb `index_error_message` (the texts of actions that cannot apply).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 3 });
const post = (json: unknown, as: 'admin' | 'user' = 'admin') => c.call('/projects/2/repository/commits', { as, method: 'POST', json });

describe('POST …/repository/commits', () => {
  it('answers 201 with the commit detail; the branch moves to it and reads see every action', async () => {
    const head = (await c.call('/projects/2/repository/commits/develop', { as: 'admin' })).json.id;
    const r = await post({
      branch: 'develop',
      commit_message: 'Two changes',
      actions: [
        { action: 'create', file_path: 'bin/run.sh', content: 'IyEvYmluL3NoCg==', encoding: 'base64' },
        { action: 'chmod', file_path: 'bin/run.sh', execute_filemode: true },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      title: 'Two changes',
      message: 'Two changes',
      parent_ids: [head],
      stats: { additions: 1, deletions: 0, total: 1 },
      status: null,
      project_id: 2,
      last_pipeline: null,
    });
    expect((await c.call('/projects/2/repository/commits/develop', { as: 'admin' })).json.id).toBe(r.json.id);
    const file = await c.call('/projects/2/repository/files/bin%2Frun.sh?ref=develop', { as: 'admin' });
    expect([file.json.content, file.json.execute_filemode]).toEqual(['IyEvYmluL3NoCg==', true]);
  });

  it('refuses parameters as Grape does, before any permission check', async () => {
    expect((await post({ branch: 'develop' })).json).toEqual({ error: 'commit_message is missing, actions is missing' });
    const bad = await post({ branch: 'develop', commit_message: 'x', actions: [{ action: 'rename', file_path: 'a' }] });
    expect([bad.status, bad.json]).toEqual([400, { error: 'actions[0][action] does not have a valid value' }]);
    const noContent = await post({ branch: 'develop', commit_message: 'x', actions: [{ action: 'update', file_path: 'README.md' }] });
    expect(noContent.json).toEqual({ error: 'actions[0][content] is missing' });
    const noPrevious = await post({ branch: 'develop', commit_message: 'x', actions: [{ action: 'move', file_path: 'b' }] });
    expect(noPrevious.json).toEqual({ error: 'actions[0][previous_path] is missing' });
  });

  it("answers Gitaly's index errors as 400 messages and changes nothing", async () => {
    const head = (await c.call('/projects/2/repository/commits/main', { as: 'admin' })).json.id;
    const cases: Array<[unknown[], string]> = [
      [[{ action: 'create', file_path: 'README.md', content: 'x' }], 'A file with this name already exists'],
      [[{ action: 'delete', file_path: 'gone.md' }], "A file with this name doesn't exist"],
      [[{ action: 'create', file_path: '', content: 'x' }], 'You must provide a file path'],
      [[{ action: 'create', file_path: 'docs/../x', content: 'x' }], 'Path cannot include directory traversal'],
      [
        [
          { action: 'create', file_path: 'new.md', content: 'x' },
          { action: 'move', previous_path: 'nope.md', file_path: 'b.md' },
        ],
        "A file with this name doesn't exist",
      ],
    ];
    for (const [actions, message] of cases) {
      const r = await post({ branch: 'main', commit_message: 'x', actions });
      expect([r.status, r.json]).toEqual([400, { message }]);
    }
    expect((await c.call('/projects/2/repository/commits/main', { as: 'admin' })).json.id).toBe(head);
    expect((await c.call('/projects/2/repository/files/new.md?ref=main', { as: 'admin' })).status).toBe(404);
  });

  it('creates the branch from start_branch; an existing branch or a missing start is refused with the service texts', async () => {
    const made = await post({
      branch: 'topic',
      start_branch: 'feature/login',
      commit_message: 'x',
      actions: [{ action: 'delete', file_path: 'src/app/login.ts' }],
    });
    expect(made.status).toBe(201);
    const branch = await c.call('/projects/2/repository/branches/topic', { as: 'admin' });
    expect(branch.json.commit).toMatchObject({ id: made.json.id });
    const again = await post({
      branch: 'topic',
      start_branch: 'main',
      commit_message: 'x',
      actions: [{ action: 'delete', file_path: 'README.md' }],
    });
    expect(again.json).toEqual({ message: "A branch called 'topic' already exists. Switch to that branch in order to make changes" });
    const missing = await post({ branch: 'other', commit_message: 'x', actions: [{ action: 'delete', file_path: 'README.md' }] });
    expect(missing.json).toEqual({ message: 'You can only create or edit files when you are on a branch' });
  });
});
