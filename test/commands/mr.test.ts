// svc mr: every verb against the sandbox, whose project 1 holds one merge request per blocker
// (1 mergeable, 2 draft, 3 conflicts, 4 merged, 5 needs an approval, 6 closed).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MERGE_CHECK_MS } from '../../src/sandbox/resources/merge-request-checks.js';
import { TestClock } from '../support/clock.js';
import { BIN, isolatedEnv, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

// Pipelines move on only when a test moves the clock: one just created is still running.
const clock = new TestClock();
const suite = useSandbox({ projects: 10, clock: clock.now });
const asJdoe = () => ({ token: suite.sandbox.tokens.user });
const json = (stdout: string) => JSON.parse(stdout);

/** jdoe's fork of project 1 (its branches, none of its merge requests), so merges and new merge requests leave project 1 as seeded. */
async function freshProject(name: string): Promise<string> {
  const r = await suite.run(['projects', 'fork', '1', '--name', name, '--path', name, '-o', 'json'], asJdoe());
  expect(r.exitCode).toBe(0);
  return String(json(r.stdout).id);
}

/** A new merge request is `preparing` for the sandbox's check window; tests that merge wait it out. */
const checkEnded = () => delay(MERGE_CHECK_MS + 30);

describe('svc mr list', () => {
  it('lists a project with filters sent as the service names them', async () => {
    const r = await suite.run([
      'mr',
      'list',
      '1',
      '--state',
      'opened',
      '--target-branch',
      'main',
      '-o',
      'tsv',
      '--fields',
      'iid,detailed_merge_status',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('iid\tdetailed_merge_status\n5\tnot_approved\n3\tconflict\n2\tdraft_status\n1\tmergeable\n');
    const sent = onlyRequest(suite, 'GET', /merge_requests/);
    expect([sent.rawPath, sent.rawQuery]).toEqual(['/api/v4/projects/1/merge_requests', 'state=opened&target_branch=main&per_page=100']);
  });

  it('--labels, --author, --reviewer, --order-by and --sort list what the service filters', async () => {
    const res = await fetch(`${suite.sandbox.url}/api/v4/projects/1/merge_requests`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    const every = (await res.json()) as Array<Record<string, any>>;
    const bug = every.filter((m) => m.labels.includes('bug'));
    const byTitle = await suite.run(['mr', 'list', '1', '--labels', 'bug', '--order-by', 'title', '--sort', 'asc', '-o', 'json']);
    expect(json(byTitle.stdout).map((m: any) => m.iid)).toEqual(
      [...bug].sort((a, b) => a.title.toLowerCase().localeCompare(b.title.toLowerCase())).map((m) => m.iid),
    );
    expect(json(byTitle.stdout).map((m: any) => m.iid)).toEqual([4, 5, 6]);
    const author = every[0]!.author.username;
    const byAuthor = await suite.run(['mr', 'list', '1', '--author', author, '-o', 'json']);
    expect(json(byAuthor.stdout).map((m: any) => m.iid)).toEqual(every.filter((m) => m.author.username === author).map((m) => m.iid));
    expect(json(byAuthor.stdout).map((m: any) => m.iid)).toEqual([6, 2]);
    const reviewed = every.find((m) => m.reviewers.length > 0)!;
    const reviewer = reviewed.reviewers[0].username;
    const byReviewer = await suite.run(['mr', 'list', '1', '--reviewer', reviewer, '-o', 'json']);
    expect(json(byReviewer.stdout).map((m: any) => m.iid)).toEqual(
      every.filter((m) => m.reviewers.some((r: any) => r.username === reviewer)).map((m) => m.iid),
    );
    expect(json(byReviewer.stdout).map((m: any) => m.iid)).toEqual([4]);
  });

  it('--author, --assignee and --reviewer take a user id too (author_id, …), and None or Any', async () => {
    const res = await fetch(`${suite.sandbox.url}/api/v4/projects/3/merge_requests`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    const every = (await res.json()) as Array<{
      iid: number;
      author: { id: number; username: string };
      assignees: unknown[];
      reviewers: unknown[];
    }>;
    const [first] = every;
    const byName = await suite.run(['mr', 'list', '3', '--author', `@${first!.author.username}`, '--reviewer', 'None', '-o', 'json']);
    expect(onlyRequest(suite, 'GET', /merge_requests/).rawQuery).toBe(
      `author_username=${first!.author.username}&reviewer_id=None&per_page=100`,
    );
    expect(json(byName.stdout).map((m: { iid: number }) => m.iid)).toEqual(
      every.filter((m) => m.author.id === first!.author.id && m.reviewers.length === 0).map((m) => m.iid),
    );
    const unassigned = await suite.run(['mr', 'list', '3', '--assignee', 'None', '-o', 'json']);
    expect(onlyRequest(suite, 'GET', /merge_requests/).rawQuery).toBe('assignee_id=None&per_page=100');
    expect(json(unassigned.stdout).map((m: { iid: number }) => m.iid)).toEqual(
      every.filter((m) => m.assignees.length === 0).map((m) => m.iid),
    );
    const byId = await suite.run(['mr', 'list', '3', '--author', String(first!.author.id), '--reviewer', 'Any', '-o', 'json']);
    expect(onlyRequest(suite, 'GET', /merge_requests/).rawQuery).toBe(`author_id=${first!.author.id}&reviewer_id=Any&per_page=100`);
    expect(json(byId.stdout).map((m: { iid: number }) => m.iid)).toEqual(
      every.filter((m) => m.author.id === first!.author.id && m.reviewers.length > 0).map((m) => m.iid),
    );
  });

  it('--draft yes lists drafts; the alias merge-requests works', async () => {
    const r = await suite.run(['merge-requests', 'list', '1', '--draft', 'yes', '-o', 'tsv', '--fields', 'iid,title']);
    expect([r.exitCode, r.stdout]).toEqual([0, 'iid\ttitle\n2\tDraft: Add a login page\n']);
  });

  it('--group lists the group with its subgroups; --instance with --scope all', async () => {
    const group = await suite.run(['mr', 'list', '--group', 'acme/platform', '--source-branch', 'fix/issue-1', '-o', 'json'], asJdoe());
    expect(group.exitCode).toBe(0);
    const sent = onlyRequest(suite, 'GET', /merge_requests/);
    expect([sent.rawPath, sent.rawQuery]).toEqual([
      '/api/v4/groups/acme%2Fplatform/merge_requests',
      'source_branch=fix%2Fissue-1&per_page=100',
    ]);
    expect(json(group.stdout).map((m: any) => m.source_branch)).toEqual(json(group.stdout).map(() => 'fix/issue-1'));
    const instance = await suite.run([
      'mr',
      'list',
      '--instance',
      '--scope',
      'all',
      '--search',
      'login',
      '--limit',
      '1',
      '-o',
      'tsv',
      '--fields',
      'title,description',
    ]);
    expect(instance.exitCode).toBe(0);
    expect(instance.stdout).toMatch(/^title\tdescription\n[^\n]*login[^\n]*\n$/i);
  });

  it('names the project of each row across projects (references.full), the bare iid within one', async () => {
    const header = 'title\tstate\tsource_branch\ttarget_branch\tauthor.username\tdetailed_merge_status';
    const scopes: Array<[string[], RegExp]> = [
      [['--group', 'acme'], /^acme\/[^!]+!\d+$/],
      [['--instance', '--scope', 'all'], /^[^/!]+\/[^!]+!\d+$/],
    ];
    for (const [scope, reference] of scopes) {
      const records = json((await suite.run(['mr', 'list', ...scope, '--all', '-o', 'json'])).stdout) as Array<{
        references: { full: string };
      }>;
      const table = await suite.run(['mr', 'list', ...scope, '--all', '-o', 'tsv']);
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`references.full\t${header}`);
      expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(records.map((m) => m.references.full));
      expect(records.filter((m) => !reference.test(m.references.full))).toEqual([]);
      expect(new Set(records.map((m) => m.references.full)).size).toBe(records.length);
      expect(records.map((m) => m.references.full)).toContain(`${suite.sandbox.state.project(1)!.fullPath}!3`);
    }
    const project = await suite.run(['mr', 'list', '1', '--limit', '1', '-o', 'tsv']);
    expect(project.stdout.split('\n')[0]).toBe(`iid\t${header}`);
  });

  it('wants exactly one of PROJECT, --group, --instance (exit 2)', async () => {
    for (const args of [[], ['1', '--instance'], ['--group', 'acme', '--instance']]) {
      const r = await suite.run(['mr', 'list', ...args]);
      expect([r.exitCode, r.stderr]).toEqual([2, 'svc: give one of: a PROJECT, --group GROUP or --instance\n']);
    }
  });
});

describe('svc mr get', () => {
  it('says in words why it cannot be merged', async () => {
    const r = await suite.run(['mr', 'get', '1', '!3', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout).detailed_merge_status).toBe('conflict');
    expect(r.stderr).toBe(`!3 has conflicts with main; resolve them first: ${json(r.stdout).web_url}\n`);
  });

  it('an unknown iid exits 5 with the iid hint', async () => {
    const r = await suite.run(['mr', 'get', '1', '99']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toBe(
      "svc: GET /projects/1/merge_requests/99 failed: 404 Not found (the path takes the merge request's iid, its number within the project, not the global id; is !99 right?)\n",
    );
  });
});

describe('svc mr create, update, close, reopen', () => {
  it('creates a draft with reviewers by username and a description file', async () => {
    const pid = await freshProject('mr-cli-create');
    const file = join(tempDir(), 'desc.md');
    writeFileSync(file, 'Adds the login page.\n');
    const r = await suite.run(
      [
        'mr',
        'create',
        pid,
        '--source',
        'feature/login',
        '--target',
        'main',
        '--title',
        'Add login',
        '--draft',
        '--reviewer',
        'root',
        '--description-file',
        file,
        '--squash',
        '-o',
        'json',
      ],
      asJdoe(),
    );
    expect(r.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /merge_requests$/).bodyJson).toEqual({
      source_branch: 'feature/login',
      target_branch: 'main',
      reviewer_ids: [1],
      squash: true,
      description: 'Adds the login page.\n',
      title: 'Draft: Add login',
    });
    expect(r.stderr.split('\n')[0]).toBe('created !1');
    await checkEnded();
    const ready = await suite.run(
      ['mr', 'update', pid, '1', '--title', 'Add login', '--ready', '--add-labels', 'ui', '-o', 'json'],
      asJdoe(),
    );
    expect([ready.exitCode, json(ready.stdout).title, json(ready.stdout).labels, json(ready.stdout).detailed_merge_status]).toEqual([
      0,
      'Add login',
      ['ui'],
      'mergeable',
    ]);
    const closed = await suite.run(['mr', 'close', pid, '1', '-o', 'json'], asJdoe());
    expect([closed.exitCode, json(closed.stdout).state, closed.stderr]).toEqual([0, 'closed', '!1 is closed\n']);
    const reopened = await suite.run(['mr', 'reopen', pid, '1', '-o', 'json'], asJdoe());
    expect([reopened.exitCode, json(reopened.stdout).state]).toEqual([0, 'opened']);
  });

  it('takes the description from stdin, several assignees by username or id, labels and --remove-source-branch', async () => {
    const pid = await freshProject('mr-cli-stdin');
    const r = await suite.run(
      [
        'mr',
        'create',
        pid,
        '--source',
        'feature/login',
        '--target',
        'main',
        '--title',
        'Release prep',
        '--assignee',
        'jdoe',
        '--assignee',
        '1',
        '--labels',
        'release,backend',
        '--remove-source-branch',
        '-o',
        'json',
      ],
      { ...asJdoe(), input: '- Update docs\n- Bump deps\n' },
    );
    expect(r.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /merge_requests$/).bodyJson).toEqual({
      target_branch: 'main',
      source_branch: 'feature/login',
      labels: 'release,backend',
      assignee_ids: [2, 1],
      remove_source_branch: true,
      description: '- Update docs\n- Bump deps\n',
      title: 'Release prep',
    });
    const mr = json(r.stdout);
    expect([mr.description, mr.labels, mr.assignees.map((u: { username: string }) => u.username), mr.should_remove_source_branch]).toEqual([
      '- Update docs\n- Bump deps\n',
      ['release', 'backend'],
      ['jdoe', 'root'],
      true,
    ]);
    const updated = await suite.run(
      [
        'mr',
        'update',
        pid,
        '1',
        '--remove-labels',
        'backend',
        '--target',
        'develop',
        '--assignee',
        'root',
        '--description-file',
        '-',
        '-o',
        'json',
      ],
      { ...asJdoe(), input: 'Only docs now.\n' },
    );
    expect(updated.exitCode).toBe(0);
    expect(onlyRequest(suite, 'PUT', /merge_requests\/1$/).bodyJson).toEqual({
      target_branch: 'develop',
      remove_labels: 'backend',
      assignee_ids: [1],
      description: 'Only docs now.\n',
    });
    const after = json(updated.stdout);
    expect([after.target_branch, after.labels, after.assignees.map((u: { username: string }) => u.username), after.description]).toEqual([
      'develop',
      ['release'],
      ['root'],
      'Only docs now.\n',
    ]);
  });

  it('--draft and --ready without --title prefix or unprefix the current title', async () => {
    const pid = await freshProject('mr-cli-draft');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Ship it'], asJdoe());
    const draft = await suite.run(['mr', 'update', pid, '1', '--draft', '-o', 'json'], asJdoe());
    expect([draft.exitCode, json(draft.stdout).title, json(draft.stdout).draft]).toEqual([0, 'Draft: Ship it', true]);
    expect(onlyRequest(suite, 'PUT', /merge_requests\/1$/).bodyJson).toEqual({ title: 'Draft: Ship it' });
    const ready = await suite.run(['mr', 'update', pid, '1', '--ready', '-o', 'json'], asJdoe());
    expect([ready.exitCode, json(ready.stdout).title, json(ready.stdout).draft]).toEqual([0, 'Ship it', false]);
    const missing = await suite.run(['mr', 'update', pid, '9', '--ready'], asJdoe());
    expect([missing.exitCode, missing.stderr]).toEqual([
      5,
      `svc: GET /projects/${pid}/merge_requests/9 failed: 404 Not found (the path takes the merge request's iid, its number within the project, not the global id; is !9 right?)\n`,
    ]);
  });

  it('update reads no stdin and wants something to change (exit 2)', async () => {
    const r = await suite.run(['mr', 'update', '1', '1'], { ...asJdoe(), input: 'not read\n' });
    expect([r.exitCode, r.stderr]).toEqual([2, 'svc: nothing to change: give at least one option\n']);
    expect(suite.requests()).toEqual([]);
  });

  it('a second open merge request from the same branch: the 409 array in one line, exit 6', async () => {
    const r = await suite.run(['mr', 'create', '1', '--source', 'feature/search-v2', '--target', 'develop', '--title', 'again'], asJdoe());
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toBe(
      'svc: POST /projects/1/merge_requests failed: 409 Conflict: Another open merge request already exists for this source branch: !3\n',
    );
  });

  it('an unknown reviewer stops before the request (exit 5)', async () => {
    const r = await suite.run(
      ['mr', 'create', '1', '--source', 'develop', '--target', 'main', '--title', 't', '--reviewer', 'nobody-here'],
      asJdoe(),
    );
    expect([r.exitCode, r.stderr]).toEqual([5, "svc: no user with username 'nobody-here'\n"]);
    expect(suite.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });
});

describe('svc mr merge: one line per refusal, with its exit code', () => {
  for (const [iid, line] of [
    ['2', 'it is a draft; mark it ready (drop the "Draft:" prefix) first'],
    ['3', 'it has conflicts with main; resolve them first'],
    ['4', 'it is already merged'],
    ['5', 'it needs approval'],
    ['6', 'it is closed; reopen it first'],
  ]) {
    it(`!${iid}: ${line}`, async () => {
      const r = await suite.run(['mr', 'merge', '1', iid!], asJdoe());
      expect([r.exitCode, r.stderr]).toEqual([6, `svc: cannot merge !${iid}: ${line}\n`]);
    });
  }

  it('a pipeline still running, then failed', async () => {
    const pid = await freshProject('mr-cli-pipeline');
    await suite.run(['mr', 'create', pid, '--source', 'fail/broken-build', '--target', 'develop', '--title', 'Build'], asJdoe());
    await checkEnded();
    const pipeline = await suite.run(['pipeline', 'create', pid, '--ref', 'fail/broken-build', '-o', 'json'], asJdoe());
    const id = json(pipeline.stdout).id;
    const running = await suite.run(['mr', 'merge', pid, '1'], asJdoe());
    expect(running.exitCode).toBe(6);
    expect(running.stderr).toBe(
      `svc: cannot merge !1: it must wait: pipeline ${id} is created, not finished (--auto merges it once it passes)\n`,
    );
    clock.advance(60_000);
    const failed = await suite.run(['mr', 'merge', pid, '1'], asJdoe());
    expect([failed.exitCode, failed.stderr]).toEqual([
      6,
      `svc: cannot merge !1: it needs a successful pipeline: pipeline ${id} is failed\n`,
    ]);
  });

  it('--sha that is no longer the head (exit 6)', async () => {
    const head = json((await suite.run(['mr', 'get', '1', '1', '-o', 'json'])).stdout).sha;
    const r = await suite.run(['mr', 'merge', '1', '1', '--sha', 'abc1234'], asJdoe());
    expect([r.exitCode, r.stderr]).toEqual([6, `svc: cannot merge !1: SHA does not match HEAD of source branch: ${head}\n`]);
  });

  it('not allowed to merge into a protected branch (exit 4)', async () => {
    const r = await suite.run(['mr', 'merge', '1', '1', '--sudo', '6']);
    expect([r.exitCode, r.stderr]).toEqual([4, 'svc: cannot merge !1: you may not merge into main (a protected branch)\n']);
  });

  it('an unknown iid (exit 5)', async () => {
    const r = await suite.run(['mr', 'merge', '1', '99'], asJdoe());
    expect([r.exitCode, r.stderr]).toEqual([
      5,
      "svc: PUT /projects/1/merge_requests/99/merge failed: 404 Not found (the path takes the merge request's iid, its number within the project, not the global id; is !99 right?)\n",
    ]);
  });

  it('right after it was opened: still being prepared, try again (exit 6); get says the same', async () => {
    const pid = await freshProject('mr-cli-preparing');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Dev'], asJdoe());
    const r = await suite.run(['mr', 'merge', pid, '1'], asJdoe());
    expect([r.exitCode, r.stderr]).toEqual([
      6,
      'svc: cannot merge !1: it was just opened and the service is still preparing it; try again in a few seconds\n',
    ]);
    const shown = await suite.run(['mr', 'get', pid, '1', '-o', 'json'], asJdoe());
    expect(shown.stderr).toBe(
      `!1 was just opened and the service is still preparing it; try again in a few seconds: ${json(shown.stdout).web_url}\n`,
    );
  });

  it('while the service checks it after an approval: try again (exit 6); a list shows it unchecked', async () => {
    const pid = await freshProject('mr-cli-checking');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Dev'], asJdoe());
    await checkEnded();
    await suite.run(['mr', 'approve', pid, '1'], asJdoe());
    const listed = await suite.run(['mr', 'list', pid, '-o', 'tsv', '--fields', 'iid,detailed_merge_status'], asJdoe());
    expect(listed.stdout).toBe('iid\tdetailed_merge_status\n1\tunchecked\n');
    const shown = await suite.run(['mr', 'get', pid, '1', '-o', 'json'], asJdoe());
    expect(shown.stderr).toBe(`!1 is being checked by the service right now; try again in a few seconds: ${json(shown.stdout).web_url}\n`);
    const r = await suite.run(['mr', 'merge', pid, '1'], asJdoe());
    expect([r.exitCode, r.stderr]).toEqual([
      6,
      'svc: cannot merge !1: it is being checked by the service right now; try again in a few seconds\n',
    ]);
    await checkEnded();
    const merged = await suite.run(['mr', 'merge', pid, '1', '-o', 'json'], asJdoe());
    expect([merged.exitCode, json(merged.stdout).state]).toEqual([0, 'merged']);
  });

  it('merges with --squash --remove-source-branch, and --when-pipeline-succeeds waits for the pipeline', async () => {
    const pid = await freshProject('mr-cli-merge');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Dev'], asJdoe());
    await checkEnded();
    const merged = await suite.run(['mr', 'merge', pid, '1', '--squash', '--remove-source-branch', '-o', 'json'], asJdoe());
    expect([merged.exitCode, json(merged.stdout).state, merged.stderr]).toEqual([0, 'merged', 'merged !1 into main\n']);
    expect(onlyRequest(suite, 'PUT', /merge$/).bodyJson).toEqual({ squash: true, should_remove_source_branch: true });
    // the merge removed develop, as asked
    const branches = await suite.run(['branches', 'list', pid, '-o', 'tsv', '--fields', 'name'], asJdoe());
    expect([branches.exitCode, branches.stdout.split('\n').includes('main'), branches.stdout.split('\n').includes('develop')]).toEqual([
      0,
      true,
      false,
    ]);
    await suite.run(['mr', 'create', pid, '--source', 'feature/login', '--target', 'main', '--title', 'Login'], asJdoe());
    await checkEnded();
    await suite.run(['pipeline', 'create', pid, '--ref', 'feature/login'], asJdoe());
    const auto = await suite.run(['mr', 'merge', pid, '2', '--when-pipeline-succeeds', '-o', 'json'], asJdoe());
    expect([auto.exitCode, json(auto.stdout).state, auto.stderr]).toEqual([
      0,
      'opened',
      '!2 will be merged into main when its pipeline succeeds\n',
    ]);
  });
});

describe('svc mr rebase', () => {
  it("starts a rebase (202) and says how to wait; a second one meanwhile exits 6 with the service's reason", async () => {
    const pid = await freshProject('mr-cli-rebase');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Dev'], asJdoe());
    const r = await suite.run(['mr', 'rebase', pid, '1', '--skip-ci', '-o', 'json'], asJdoe());
    expect([r.exitCode, json(r.stdout), r.stderr]).toEqual([
      0,
      { rebase_in_progress: true },
      `rebase of !1 started; \`svc mr rebase ${pid} 1 --wait\` waits for it\n`,
    ]);
    expect(onlyRequest(suite, 'PUT', /rebase$/).bodyJson).toEqual({ skip_ci: true });
    const again = await suite.run(['mr', 'rebase', pid, '1'], asJdoe());
    expect([again.exitCode, again.stderr]).toEqual([
      6,
      `svc: PUT /projects/${pid}/merge_requests/1/rebase failed: 409 Conflict: Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.\n`,
    ]);
  });

  it('--wait polls until the rebase is done and prints the merge request', async () => {
    const pid = await freshProject('mr-cli-rebase-wait');
    await suite.run(['mr', 'create', pid, '--source', 'develop', '--target', 'main', '--title', 'Dev'], asJdoe());
    const r = await suite.run(['mr', 'rebase', pid, '1', '--wait', '--interval', '0.1', '-o', 'json'], asJdoe());
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout).iid).toBe(1);
    expect(r.stderr).toMatch(/^rebase of !1: running\nrebase of !1: done\nrebase of !1 done in \d+(\.\d)? s\n$/);
    expect(json(r.stdout).rebase_in_progress).toBe(false);
    const polls = suite.requests().filter((q) => q.method === 'GET');
    expect(new Set(polls.map((q) => q.rawQuery))).toEqual(new Set(['include_rebase_in_progress=true']));
  });

  it('exits 4 for a user who may not push to the source branch, and 2 for --interval without --wait', async () => {
    const outsider = suite.sandbox.state.user(3)!.username;
    const r = await suite.run(['mr', 'rebase', '1', '1', '--sudo', outsider]);
    expect([r.exitCode, r.stderr]).toEqual([
      4,
      'svc: PUT /projects/1/merge_requests/1/rebase failed: 403 Forbidden - Cannot push to source branch\n',
    ]);
    const usage = await suite.run(['mr', 'rebase', '1', '1', '--interval', '1'], asJdoe());
    expect([usage.exitCode, usage.stderr]).toEqual([2, 'svc: --interval only applies with --wait\n']);
    expect(suite.requests()).toEqual([]);
  });
});

describe('svc mr approve, unapprove, approvals', () => {
  it('approves, says so when already approved, withdraws', async () => {
    const first = await suite.run(['mr', 'approve', '1', '5', '-o', 'json'], asJdoe());
    expect([first.exitCode, json(first.stdout).approved, first.stderr]).toEqual([0, true, '!5: approved\n']);
    const again = await suite.run(['mr', 'approve', '1', '5'], asJdoe());
    expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, '', '!5: you had already approved it\n']);
    const shown = await suite.run(['mr', 'approvals', '1', '5', '-o', 'json'], asJdoe());
    expect(json(shown.stdout).approved_by.map((a: any) => a.user.username)).toEqual(['jdoe']);
    const withdrawn = await suite.run(['mr', 'unapprove', '1', '5', '-o', 'json'], asJdoe());
    expect([withdrawn.exitCode, json(withdrawn.stdout).approved_by]).toEqual([0, []]);
  });

  it('prints nothing with -q; a table names the approvers', async () => {
    expect(await suite.run(['mr', 'approve', '1', '5', '-q'], asJdoe())).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await suite.run(['mr', 'approve', '1', '5', '-q'])).exitCode).toBe(0);
    const shown = await suite.run(['mr', 'approvals', '1', '5', '-o', 'tsv'], asJdoe());
    expect(shown.stdout).toBe('approved\tuser_has_approved\tuser_can_approve\tapproved_by\ntrue\ttrue\ttrue\tjdoe,root\n');
    expect(await suite.run(['mr', 'unapprove', '1', '5', '-q'], asJdoe())).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

describe('svc mr comment, notes', () => {
  it('comments from --body and stdin, then lists them newest first', async () => {
    const one = await suite.run(['mr', 'comment', '1', '1', '--body', 'Pipeline passed', '-o', 'json'], asJdoe());
    expect([one.exitCode, one.stderr]).toEqual([0, `commented on !1 of 1 (note ${json(one.stdout).id})\n`]);
    const two = await suite.run(['mr', 'comment', '1', '!1', '-o', 'json'], { ...asJdoe(), input: 'from a pipe\n' });
    expect([two.exitCode, two.stderr]).toEqual([0, `commented on !1 of 1 (note ${json(two.stdout).id})\n`]);
    expect(onlyRequest(suite, 'POST', /notes$/).bodyJson).toEqual({ body: 'from a pipe\n' });
    const notes = await suite.run(['mr', 'notes', '1', '1', '--limit', '2', '-o', 'tsv', '--fields', 'author.username,body']);
    expect(notes.stdout).toBe('author.username\tbody\njdoe\tfrom a pipe\\n\njdoe\tPipeline passed\n');
  });

  it('comments from --body-file, a path or - for stdin', async () => {
    const file = join(tempDir(), 'report.md');
    writeFileSync(file, '## Coverage\n\n91%\n');
    const fromFile = await suite.run(['mr', 'comment', '1', '1', '--body-file', file, '-o', 'json'], asJdoe());
    expect([fromFile.exitCode, json(fromFile.stdout).body]).toEqual([0, '## Coverage\n\n91%\n']);
    const dash = await suite.run(['mr', 'comment', '1', '1', '--body-file', '-', '-o', 'json'], { ...asJdoe(), input: 'piped\n' });
    expect([dash.exitCode, json(dash.stdout).body]).toEqual([0, 'piped\n']);
    const both = await suite.run(['mr', 'comment', '1', '1', '--body', 'a', '--body-file', file], asJdoe());
    expect([both.exitCode, both.stderr]).toEqual([2, 'svc: give either --body or --body-file, not both\n']);
  });

  it('notes edit replaces a comment from --body or stdin; a missing note exits 5 with its hint', async () => {
    const made = json((await suite.run(['mr', 'comment', '1', '1', '--body', 'Coverage 90%', '-o', 'json'], asJdoe())).stdout);
    const edited = await suite.run(['mr', 'notes', 'edit', '1', '1', String(made.id), '--body', 'Coverage 91%', '-o', 'json'], asJdoe());
    expect([edited.exitCode, edited.stderr, json(edited.stdout).body]).toEqual([0, `edited note ${made.id} of !1 of 1\n`, 'Coverage 91%']);
    expect(onlyRequest(suite, 'PUT', /notes/).bodyJson).toEqual({ body: 'Coverage 91%' });
    const piped = await suite.run(['mr', 'notes', 'edit', '1', '1', String(made.id), '-o', 'json'], {
      ...asJdoe(),
      input: 'Coverage 92%\n',
    });
    expect(json(piped.stdout).body).toBe('Coverage 92%\n');
    const missing = await suite.run(['mr', 'notes', 'edit', '1', '1', '1', '--body', 'x'], asJdoe());
    expect([missing.exitCode, missing.stderr]).toEqual([
      5,
      'svc: PUT /projects/1/merge_requests/1/notes/1 failed: 404 Not found (is 1 a comment of this merge request? svc mr notes lists them)\n',
    ]);
  });

  it('exits 5 with the iid hint for a missing merge request', async () => {
    const r = await suite.run(['mr', 'comment', '1', '999', '--body', 'x'], asJdoe());
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      5,
      '',
      "svc: POST /projects/1/merge_requests/999/notes failed: 404 MergeRequest Not Found (the path takes the merge request's iid, its number within the project, not the global id; is !999 right?)\n",
    ]);
  });

  it('an empty comment is refused before the request (exit 2)', async () => {
    const r = await suite.run(['mr', 'comment', '1', '1', '--body', '  '], asJdoe());
    expect([r.exitCode, r.stderr]).toEqual([2, 'svc: --body is empty\n']);
    const none = await suite.run(['mr', 'comment', '1', '1'], { ...asJdoe(), input: '' });
    expect([none.exitCode, none.stderr]).toEqual([2, 'svc: stdin is empty: give --body or --body-file, or pipe the text on stdin\n']);
    expect(suite.requests()).toEqual([]);
  });
});

describe('svc mr diff', () => {
  const LOGIN_DIFF =
    'diff --git a/src/app/login.ts b/src/app/login.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/app/login.ts\n' +
    '@@ -0,0 +1,3 @@\n+export function login(): boolean {\n+  return true;\n+}\n';

  it('prints a unified diff, uncoloured when stdout is not a terminal', async () => {
    const r = await suite.run(['mr', 'diff', '1', '2']);
    expect([r.exitCode, r.stdout]).toEqual([0, LOGIN_DIFF]);
  });

  it('colours it on a terminal', async () => {
    const term = spawnPty(['node', BIN, 'mr', 'diff', '1', '2'], {
      env: { ...isolatedEnv({ env: sandboxEnv(suite.sandbox, suite.sandbox.tokens.admin) }), TERM: 'xterm-256color' },
    });
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toContain('\x1b[1mdiff --git a/src/app/login.ts b/src/app/login.ts\x1b[22m\r\n');
    expect(end.output).toContain('\x1b[36m@@ -0,0 +1,3 @@\x1b[39m\r\n\x1b[32m+export function login(): boolean {\x1b[39m\r\n');
  });
});
