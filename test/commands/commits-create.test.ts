import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

// `svc commits create` over the sandbox, which answers as lib/api/commits.rb and Files::MultiService
// do (test/sandbox/conformance/commit-actions.test.ts).
describe('svc commits create', () => {
  const suite = useSandbox({ projects: 4 });
  const api = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(`${suite.sandbox.url}/api/v4${path}`, {
      method: init.method ?? 'GET',
      headers: { 'PRIVATE-TOKEN': init.token ?? suite.sandbox.tokens.admin, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>> };
  };
  const raw = async (project: number, path: string, ref: string) =>
    fetch(
      `${suite.sandbox.url}/api/v4/projects/${project}/repository/files/${encodeURIComponent(path)}/raw?ref=${encodeURIComponent(ref)}`,
      {
        headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
      },
    );
  const files = (dir: string, entries: Record<string, string | Buffer>) => {
    for (const [name, content] of Object.entries(entries)) writeFileSync(join(dir, name), content);
  };

  it('sends the actions in the order typed, binary as base64, and the branch gets the commit on top of its start', async () => {
    const dir = tempDir();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]);
    files(dir, { 'notes.md': 'one\ntwo\n', 'logo.png': png, 'readme.md': '# Fresh\n\nNew text.\n' });
    const mainHead = (await api('/projects/1/repository/commits/main')).body.id as string;
    const result = await suite.run(
      [
        'commits',
        'create',
        '1',
        '--branch',
        'bot/update',
        '--start-branch',
        'main',
        '--message',
        'Generated files\n\nFrom the nightly job.',
        '--chmod',
        'src/lib/util.ts=+x',
        '--add',
        `docs/notes.md=@${join(dir, 'notes.md')}`,
        '--delete',
        'docs/release notes.md',
        '--add',
        `assets/new.png=@${join(dir, 'logo.png')}`,
        '--move',
        'src/app/main.ts=src/app/index.ts',
        '--update',
        `README.md=@${join(dir, 'readme.md')}`,
        '-o',
        'json',
      ],
      { cwd: dir },
    );
    expect(result.exitCode).toBe(0);
    const commit = JSON.parse(result.stdout) as Record<string, unknown>;
    // notes.md +2; README.md 5 lines → 3; main.ts moved (2 lines out, 2 in); release notes.md −3; the PNG counts no lines.
    expect(result.stderr).toBe(`committed ${String(commit.short_id)} to bot/update: Generated files (+7 -10)\n`);
    expect(commit).toMatchObject({
      title: 'Generated files',
      message: 'Generated files\n\nFrom the nightly job.',
      parent_ids: [mainHead],
      author_name: 'Administrator',
      project_id: 1,
      stats: { additions: 7, deletions: 10, total: 17 },
    });
    const requests = suite.requests();
    expect(requests.map((r) => [r.method, r.rawPath])).toEqual([['POST', '/api/v4/projects/1/repository/commits']]);
    expect(JSON.parse(requests[0]!.body)).toEqual({
      branch: 'bot/update',
      start_branch: 'main',
      commit_message: 'Generated files\n\nFrom the nightly job.',
      actions: [
        { action: 'chmod', file_path: 'src/lib/util.ts', execute_filemode: true },
        { action: 'create', file_path: 'docs/notes.md', content: 'one\ntwo\n', encoding: 'text' },
        { action: 'delete', file_path: 'docs/release notes.md' },
        { action: 'create', file_path: 'assets/new.png', content: png.toString('base64'), encoding: 'base64' },
        { action: 'move', file_path: 'src/app/index.ts', previous_path: 'src/app/main.ts' },
        { action: 'update', file_path: 'README.md', content: '# Fresh\n\nNew text.\n', encoding: 'text' },
      ],
    });
    expect(Buffer.from(await (await raw(1, 'assets/new.png', 'bot/update')).arrayBuffer())).toEqual(png);
    expect(await (await raw(1, 'docs/notes.md', 'bot/update')).text()).toBe('one\ntwo\n');
    expect((await raw(1, 'docs/release notes.md', 'bot/update')).status).toBe(404);
    expect((await raw(1, 'src/app/main.ts', 'bot/update')).status).toBe(404);
    expect(await (await raw(1, 'src/app/index.ts', 'bot/update')).text()).toContain('console.log(project);');
    const tree = await api('/projects/1/repository/tree?ref=bot%2Fupdate&path=src%2Flib');
    expect(tree.body.map((e) => [e.path, e.mode])).toEqual([['src/lib/util.ts', '100755']]);
    const log = await api('/projects/1/repository/commits?ref_name=bot%2Fupdate&per_page=2');
    expect(log.body.map((c) => c.id)).toEqual([commit.id, mainHead]);
    // main itself is untouched.
    expect((await raw(1, 'docs/notes.md', 'main')).status).toBe(404);
  });

  it('applies all or nothing: one action that cannot apply refuses the commit with the service text (exit 6)', async () => {
    const dir = tempDir();
    files(dir, { 'a.txt': 'a\n' });
    const before = (await api('/projects/2/repository/commits/develop')).body.id;
    const cases: Array<[string[], string]> = [
      [['--add', `new.txt=@${join(dir, 'a.txt')}`, '--add', `README.md=@${join(dir, 'a.txt')}`], 'A file with this name already exists'],
      [['--update', `missing.txt=@${join(dir, 'a.txt')}`], "A file with this name doesn't exist"],
      [['--delete', 'nope.md'], "A file with this name doesn't exist"],
      [['--move', 'README.md=.gitlab-ci.yml'], 'A file with this name already exists'],
      [['--add', `docs=@${join(dir, 'a.txt')}`], 'A directory with this name already exists'],
    ];
    for (const [actions, message] of cases) {
      const result = await suite.run(['commits', 'create', '2', '--branch', 'develop', '--message', 'x', ...actions]);
      expect(result).toEqual({
        exitCode: 6,
        stdout: '',
        stderr: `svc: POST /projects/2/repository/commits failed: 400 Bad Request: ${message}\n`,
      });
    }
    expect((await api('/projects/2/repository/commits/develop')).body.id).toBe(before);
    expect((await raw(2, 'new.txt', 'develop')).status).toBe(404);
    const taken = await suite.run([
      'commits',
      'create',
      '2',
      '--branch',
      'develop',
      '--start-branch',
      'main',
      '--message',
      'x',
      '--delete',
      'README.md',
    ]);
    expect(taken.stderr).toBe(
      "svc: POST /projects/2/repository/commits failed: 400 Bad Request: A branch called 'develop' already exists. Switch to that branch in order to make changes\n",
    );
    const nowhere = await suite.run(['commits', 'create', '2', '--branch', 'no/such', '--message', 'x', '--delete', 'README.md']);
    expect(nowhere.stderr).toBe(
      'svc: POST /projects/2/repository/commits failed: 400 Bad Request: You can only create or edit files when you are on a branch\n',
    );
  });

  it('reads one file from stdin; refuses before any request: @- twice, an empty stdin, a missing file, no action, a bad --chmod', async () => {
    const piped = await suite.run(
      ['commits', 'create', '2', '--branch', 'develop', '--message', 'From stdin', '--add', 'gen/out.txt=@-', '-q'],
      {
        input: 'generated\n',
      },
    );
    expect(piped).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await (await raw(2, 'gen/out.txt', 'develop')).text()).toBe('generated\n');
    const dir = tempDir();
    const cases: Array<[string[], string]> = [
      [['--add', 'a=@-', '--update', 'README.md=@-'], 'svc: stdin (@-) can give the content of one file only\n'],
      [
        ['--add', 'x.txt=@-'],
        'svc: --add x.txt=@-: stdin is empty; pipe the content in, or give PATH=@FILE (@/dev/null for an empty file)\n',
      ],
      [['--add', `a=@${join(dir, 'missing.txt')}`], `svc: --add ${join(dir, 'missing.txt')}: no such file\n`],
      [['--add', `a=@${dir}`], `svc: --add ${dir}: is a directory, not a file\n`],
      [[], 'svc: nothing to commit: give at least one --add, --update, --delete, --move or --chmod\n'],
      [['--add', 'a=text'], "svc: --add 'a=text': expected PATH=@FILE (a local file, or @- for stdin)\n"],
      [['--chmod', 'run.sh=755'], "svc: --chmod 'run.sh=755': expected PATH=+x or PATH=-x\n"],
      [['--delete', '../etc/passwd'], "svc: --delete ../etc/passwd: a path in the repository cannot hold '..'\n"],
    ];
    for (const [actions, stderr] of cases) {
      expect(await suite.run(['commits', 'create', '2', '--branch', 'develop', '--message', 'x', ...actions])).toEqual({
        exitCode: 2,
        stdout: '',
        stderr,
      });
      expect(suite.requests()).toEqual([]);
    }
  });

  it('makes the first commit of an empty repository, which creates its default branch', async () => {
    const created = await api('/projects', { method: 'POST', body: { name: 'empty-commits' } });
    const id = created.body.id as number;
    const dir = tempDir();
    files(dir, { 'readme.md': '# Empty no more\n' });
    const result = await suite.run([
      'commits',
      'create',
      String(id),
      '--branch',
      'trunk',
      '--message',
      'First',
      '--add',
      `README.md=@${join(dir, 'readme.md')}`,
      '-o',
      'json',
      '--fields',
      'title,parent_ids,stats',
    ]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ title: 'First', parent_ids: [], stats: { additions: 1, deletions: 0, total: 1 } });
    const project = await api(`/projects/${id}`);
    expect([project.body.default_branch, project.body.empty_repo]).toEqual(['trunk', false]);
  });

  it('needs a role that may push to the branch: 403 with the service text, exit 4', async () => {
    const me = await api('/user', { token: suite.sandbox.tokens.user });
    await api('/projects/4/members', { method: 'POST', body: { user_id: me.body.id, access_level: 30 } });
    const asDeveloper = (branch: string) =>
      suite.run(
        ['commits', 'create', '4', '--branch', branch, '--start-branch', 'develop', '--message', 'x', '--delete', 'README.md', '-q'],
        {
          token: suite.sandbox.tokens.user,
        },
      );
    expect(await asDeveloper('main')).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /projects/4/repository/commits failed: 403 Forbidden - You are not allowed to push into this branch\n',
    });
    expect((await asDeveloper('dev/cleanup')).exitCode).toBe(0);
    await api(`/projects/4/members/${String(me.body.id)}`, { method: 'PUT', body: { access_level: 20 } });
    expect((await asDeveloper('dev/other')).stderr).toBe(
      'svc: POST /projects/4/repository/commits failed: 403 Forbidden - You are not allowed to push into this branch\n',
    );
  });
});
