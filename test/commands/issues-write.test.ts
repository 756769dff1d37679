import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const dir = tempDir();
const notesFile = join(dir, 'notes.md');
writeFileSync(notesFile, '## Seen on main\n');

interface IssueJson {
  iid: number;
  title: string;
  description: string;
  state: string;
  labels: string[];
  assignees: Array<{ username: string }>;
  milestone: { title: string } | null;
  due_date: string | null;
  confidential: boolean;
}

const issueOf = (stdout: string) => JSON.parse(stdout) as IssueJson;

describe('issues create', () => {
  it('opens an issue with every field, the assignee looked up by username', async () => {
    const result = await suite.run(
      [
        'issues',
        'create',
        '3',
        '--title',
        'Nightly failed',
        '--description',
        'see job 88',
        '--labels',
        'ci,bug',
        '--assignee',
        'jdoe',
        '--milestone',
        'v1.0',
        '--due',
        '2026-12-24',
        '--confidential',
        '-o',
        'json',
      ],
      { input: 'ignored: --description was given' },
    );
    expect(result.exitCode).toBe(0);
    const issue = issueOf(result.stdout);
    expect(result.stderr).toBe(
      `created issue #${issue.iid}: ${suite.sandbox.url}/${suite.sandbox.state.project(3)!.fullPath}/-/issues/${issue.iid}\n`,
    );
    expect(issue).toMatchObject({
      title: 'Nightly failed',
      description: 'see job 88',
      labels: ['ci', 'bug'],
      milestone: { title: 'v1.0' },
      due_date: '2026-12-24',
      confidential: true,
      state: 'opened',
    });
    expect(issue.assignees.map((u) => u.username)).toEqual(['jdoe']);
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`)).toEqual([
      'GET /api/v4/users?username=jdoe',
      'POST /api/v4/projects/3/issues?',
    ]);
    expect(onlyRequest(suite, 'POST', /issues/).bodyJson).toEqual({
      title: 'Nightly failed',
      labels: 'ci,bug',
      assignee_ids: [2],
      milestone: 'v1.0',
      due_date: '2026-12-24',
      confidential: true,
      description: 'see job 88',
    });
  });

  it('sends every --assignee (username or id) as assignee_ids; the service keeps the first', async () => {
    const result = await suite.run(
      ['issues', 'create', '3', '--title', 'Two people', '--assignee', 'jdoe', '--assignee', '1', '-o', 'json'],
      {
        input: '',
      },
    );
    expect(result.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /issues/).bodyJson).toEqual({ title: 'Two people', assignee_ids: [2, 1] });
    expect(issueOf(result.stdout).assignees.map((u) => u.username)).toEqual(['jdoe']);
  });

  it('takes the description from a file or from stdin, and none from an empty stdin', async () => {
    const fromFile = await suite.run(['issues', 'create', '3', '--title', 'f', '--description-file', notesFile, '-o', 'json']);
    expect(issueOf(fromFile.stdout).description).toBe('## Seen on main\n');
    const piped = await suite.run(['issues', 'create', '3', '--title', 'p', '-o', 'json'], { input: 'from the pipe\n' });
    expect(issueOf(piped.stdout).description).toBe('from the pipe\n');
    const dash = await suite.run(['issues', 'create', '3', '--title', 'd', '--description-file', '-', '-o', 'json'], { input: 'dash\n' });
    expect(issueOf(dash.stdout).description).toBe('dash\n');
    const empty = await suite.run(['issues', 'create', '3', '--title', 'e', '-o', 'json'], { input: '' });
    expect(empty.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /issues/).bodyJson).toEqual({ title: 'e' });
  });

  it('refuses bad input before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['--description', 'a', '--description-file', notesFile], 'svc: give either --description or --description-file, not both\n'],
      [['--description-file', join(dir, 'missing.md')], `svc: --description-file ${join(dir, 'missing.md')}: no such file\n`],
      [['--due', '2026-02-30'], "svc: error: option '--due <date>' argument '2026-02-30' is invalid. --due takes a date as YYYY-MM-DD\n"],
      [['--title', ' '], 'svc: --title must not be empty\n'],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['issues', 'create', '3', '--title', 't', ...args], { input: '' });
      expect(result.stderr).toBe(message);
      expect(result.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });

  it('exits 5 for an unknown assignee or milestone, and 4 without the right to create', async () => {
    const user = await suite.run(['issues', 'create', '3', '--title', 't', '--assignee', 'nobody'], { input: '' });
    expect(user.stderr).toBe("svc: no user with username 'nobody'\n");
    expect(user.exitCode).toBe(5);
    const milestone = await suite.run(['issues', 'create', '3', '--title', 't', '--milestone', 'v9'], { input: '' });
    expect(milestone.stderr).toBe('svc: POST /projects/3/issues failed: 404 Milestone Not Found\n');
    expect(milestone.exitCode).toBe(5);
    const anonymous = await suite.run(['issues', 'create', '1', '--title', 't'], { input: '', token: suite.sandbox.tokens.readApi });
    expect(anonymous.exitCode).toBe(4);
  });
});

describe('issues update, close, reopen, delete', () => {
  it('adds and removes labels, replaces the description and the assignee', async () => {
    const made = issueOf(
      (await suite.run(['issues', 'create', '3', '--title', 'u', '--labels', 'a,b', '-o', 'json'], { input: '' })).stdout,
    );
    const result = await suite.run([
      'issues',
      'update',
      '3',
      String(made.iid),
      '--add-labels',
      'c',
      '--remove-labels',
      'a',
      '--description-file',
      notesFile,
      '--assignee',
      '1',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `updated issue #${made.iid}: ${suite.sandbox.url}/${suite.sandbox.state.project(3)!.fullPath}/-/issues/${made.iid}\n`,
    );
    expect(issueOf(result.stdout)).toMatchObject({ labels: ['b', 'c'], description: '## Seen on main\n' });
    expect(issueOf(result.stdout).assignees.map((u) => u.username)).toEqual(['root']);
    expect(onlyRequest(suite, 'PUT', /issues/).bodyJson).toEqual({
      add_labels: 'c',
      remove_labels: 'a',
      assignee_ids: [1],
      description: '## Seen on main\n',
    });
  });

  it('refuses an update with nothing to change (exit 2), and does not read stdin for it', async () => {
    const result = await suite.run(['issues', 'update', '3', '1'], { input: 'not a description' });
    expect(result.stderr).toBe(
      'svc: nothing to change: give --title, --description, --description-file, --labels, --add-labels, --remove-labels, --assignee, --milestone or --due\n',
    );
    expect(result.exitCode).toBe(2);
    expect(suite.requests()).toHaveLength(0);
  });

  it('closes and reopens with state_event, printing the issue; closing twice succeeds', async () => {
    const closed = await suite.run(['issues', 'close', '3', '#1', '-o', 'json']);
    expect(closed.exitCode).toBe(0);
    expect(closed.stderr).toBe('closed issue #1 of 3\n');
    expect(issueOf(closed.stdout).state).toBe('closed');
    expect(onlyRequest(suite, 'PUT', /^\/api\/v4\/projects\/3\/issues\/1$/).bodyJson).toEqual({ state_event: 'close' });
    const again = await suite.run(['issues', 'close', '3', '1', '-o', 'json']);
    expect(again.exitCode).toBe(0);
    expect(issueOf(again.stdout).state).toBe('closed');
    const reopened = await suite.run(['issues', 'reopen', '3', '1', '-o', 'json']);
    expect(reopened.stderr).toBe('reopened issue #1 of 3\n');
    expect(issueOf(reopened.stdout).state).toBe('opened');
    expect(onlyRequest(suite, 'PUT', /issues/).bodyJson).toEqual({ state_event: 'reopen' });
  });

  it('exits 5 with the hint for an unknown iid', async () => {
    const result = await suite.run(['issues', 'close', '3', '999']);
    expect(result.stderr).toBe(
      "svc: PUT /projects/3/issues/999 failed: 404 Not found (the path takes the issue's iid, its number within the project, not the global id; is #999 right?)\n",
    );
    expect(result.exitCode).toBe(5);
  });

  it('deletes with 204 (nothing on stdout), then answers 404 Issue Not Found; below owner exits 4 naming the role', async () => {
    const made = issueOf((await suite.run(['issues', 'create', '3', '--title', 'gone', '-o', 'json'], { input: '' })).stdout);
    const denied = await suite.run(['issues', 'delete', '2', '1', '--yes'], { token: suite.sandbox.tokens.user });
    expect(denied.stderr).toBe(
      'svc: DELETE /projects/2/issues/1 failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    );
    expect(denied.exitCode).toBe(4);
    const deleted = await suite.run(['issues', 'delete', '3', String(made.iid), '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: `deleted issue #${made.iid} of 3\n` });
    const again = await suite.run(['issues', 'delete', '3', String(made.iid), '-y']);
    expect(again.stderr).toBe(
      `svc: DELETE /projects/3/issues/${made.iid} failed: 404 Issue Not Found (the path takes the issue's iid, its number within the project, not the global id; is #${made.iid} right?)\n`,
    );
    expect(again.exitCode).toBe(5);
  });

  it('needs --yes without a terminal: exit 2, nothing sent, the issue kept', async () => {
    const made = issueOf((await suite.run(['issues', 'create', '3', '--title', 'kept', '-o', 'json'], { input: '' })).stdout);
    suite.sandbox.clearRequests();
    const result = await suite.run(['issues', 'delete', '3', String(made.iid)]);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Delete issue #${made.iid} of 3: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests()).toEqual([]);
    const still = await suite.run(['issues', 'get', '3', String(made.iid), '--fields', 'title', '-o', 'json']);
    expect(JSON.parse(still.stdout)).toEqual({ title: 'kept' });
  });
});

describe('issues delete on a terminal', () => {
  const terminalEnv = () => ({ ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'dumb', NO_COLOR: '1' });

  it('asks first: anything but y keeps the issue (exit 1), y deletes it', async () => {
    const made = issueOf((await suite.run(['issues', 'create', '4', '--title', 'asked', '-o', 'json'], { input: '' })).stdout);
    suite.sandbox.clearRequests();
    const refused = spawnPty(['node', BIN, 'issues', 'delete', '4', String(made.iid)], { env: terminalEnv() });
    await refused.waitFor('? [y/N] ');
    refused.write('n\r');
    const no = await refused.exit();
    expect([no.exitCode, no.output]).toEqual([
      1,
      `Delete issue #${made.iid} of 4? [y/N] n\r\nsvc: Delete issue #${made.iid} of 4: not confirmed, nothing was changed\r\n`,
    ]);
    expect(suite.requests().filter((r) => r.method === 'DELETE')).toEqual([]);

    const agreed = spawnPty(['node', BIN, 'issues', 'delete', '4', String(made.iid)], { env: terminalEnv() });
    await agreed.waitFor('? [y/N] ');
    agreed.write('y\r');
    const yes = await agreed.exit();
    expect([yes.exitCode, yes.output]).toEqual([0, `Delete issue #${made.iid} of 4? [y/N] y\r\ndeleted issue #${made.iid} of 4\r\n`]);
    expect(
      suite
        .requests()
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.rawPath),
    ).toEqual([`/api/v4/projects/4/issues/${made.iid}`]);
  });
});
