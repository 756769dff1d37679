import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const pairs = (raw: string) => [...new URLSearchParams(raw)];

/** What the sandbox answers to the same request made directly, to compare with what svc printed. */
async function direct(path: string): Promise<Array<{ id: number }>> {
  return (await req(suite.sandbox.url, `/api/v4${path}`, { token: suite.sandbox.tokens.admin })).json;
}

describe('issues list', () => {
  it("lists a project's issues with every filter sent under the service's names", async () => {
    const result = await suite.run([
      'issues',
      'list',
      `acme/platform/${suite.sandbox.state.project(1)!.path}`,
      '--state',
      'opened',
      '--labels',
      'bug,backend',
      '--milestone',
      'Any',
      '--search',
      'e',
      '--iids',
      '1,#2,3,5',
      '--created-after',
      '2000-01-01T00:00:00Z',
      '--created-before',
      '2100-01-01T00:00:00Z',
      '--updated-after',
      '2000-01-01T00:00:00Z',
      '--updated-before',
      '2100-01-01T00:00:00Z',
      '--order-by',
      'updated_at',
      '--sort',
      'asc',
      '-o',
      'json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const request = onlyRequest(suite, 'GET', /issues/);
    expect(request.rawPath).toBe(`/api/v4/projects/acme%2Fplatform%2F${suite.sandbox.state.project(1)!.path}/issues`);
    expect(pairs(request.rawQuery)).toEqual([
      ['state', 'opened'],
      ['labels', 'bug,backend'],
      ['milestone', 'Any'],
      ['search', 'e'],
      ['iids[]', '1'],
      ['iids[]', '2'],
      ['iids[]', '3'],
      ['iids[]', '5'],
      ['created_after', '2000-01-01T00:00:00Z'],
      ['created_before', '2100-01-01T00:00:00Z'],
      ['updated_after', '2000-01-01T00:00:00Z'],
      ['updated_before', '2100-01-01T00:00:00Z'],
      ['order_by', 'updated_at'],
      ['sort', 'asc'],
      ['per_page', '100'],
    ]);
    const expected = await direct(`/projects/1/issues?${request.rawQuery}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('sends a username as author_username/assignee_username and an id as author_id/assignee_id', async () => {
    await suite.run(['issues', 'list', '1', '--author', 'jdoe', '--assignee', 'root']);
    expect(pairs(onlyRequest(suite, 'GET', /issues/).rawQuery)).toEqual([
      ['author_username', 'jdoe'],
      ['assignee_username', 'root'],
      ['per_page', '100'],
    ]);
    await suite.run(['issues', 'list', '1', '--author', '2', '--assignee', 'None', '--confidential']);
    expect(pairs(onlyRequest(suite, 'GET', /issues/).rawQuery)).toEqual([
      ['confidential', 'true'],
      ['author_id', '2'],
      ['assignee_id', 'None'],
      ['per_page', '100'],
    ]);
  });

  it('lists a group with its subgroups, saying which project each issue is in', async () => {
    const result = await suite.run(['issues', 'list', '--group', 'acme', '--state', 'opened', '--all', '--per-page', '4']);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const paths = suite.requests().map((r) => r.rawPath);
    expect(lines[0]).toBe('references.full\ttitle\tstate\tauthor.username\tlabels\tcreated_at');
    const expected = (await direct('/groups/acme/issues?state=opened&per_page=100')) as unknown as Array<{ references: { full: string } }>;
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(expected.map((i) => i.references.full));
    expect(expected.map((i) => i.references.full.split('/')[0])).toEqual(expected.map(() => 'acme'));
    expect(paths).toEqual(Array.from({ length: Math.ceil(expected.length / 4) }, () => '/api/v4/groups/acme/issues'));
  });

  it('lists every issue on the instance with scope=all unless --scope says otherwise', async () => {
    const all = await suite.run(['issues', 'list', '--instance', '--all', '-o', 'json']);
    expect(all.exitCode).toBe(0);
    const request = onlyRequest(suite, 'GET', /issues/);
    expect(request.rawPath).toBe('/api/v4/issues');
    expect(pairs(request.rawQuery)).toEqual([
      ['scope', 'all'],
      ['per_page', '100'],
    ]);
    expect(JSON.parse(all.stdout)).toEqual(await direct('/issues?scope=all&per_page=100'));
    const mine = await suite.run(['issues', 'list', '--instance', '--scope', 'created_by_me', '-o', 'json'], {
      token: suite.sandbox.tokens.user,
    });
    expect(pairs(onlyRequest(suite, 'GET', /issues/).rawQuery)).toEqual([
      ['scope', 'created_by_me'],
      ['per_page', '100'],
    ]);
    const authors = (JSON.parse(mine.stdout) as Array<{ author: { username: string } }>).map((i) => i.author.username);
    expect(authors.length).toBeGreaterThan(0);
    expect(authors).toEqual(authors.map(() => 'jdoe'));
  });

  it('refuses no scope, two scopes and bad values before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'svc: give one of: a project, --group GROUP or --instance (which issues to list)\n'],
      [['1', '--instance'], 'svc: give one of: a project, --group GROUP or --instance (which issues to list)\n'],
      [['--group', 'acme', '--instance'], 'svc: give one of: a project, --group GROUP or --instance (which issues to list)\n'],
      [
        ['1', '--iids', '1,x'],
        "svc: error: option '--iids <iids>' argument '1,x' is invalid. --iids takes issue numbers such as 1,2,#3; 'x' is not one\n",
      ],
      [
        ['1', '--state', 'open'],
        "svc: error: option '--state <state>' argument 'open' is invalid. Allowed choices are opened, closed, all.\n",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['issues', 'list', ...args]);
      expect(result.stderr).toBe(message);
      expect(result.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });

  it('exits 5 for an unknown group and 2 for a time that is not ISO 8601, before any request', async () => {
    const group = await suite.run(['issues', 'list', '--group', 'no-such-group']);
    expect(group.exitCode).toBe(5);
    expect(group.stderr).toBe('svc: GET /groups/no-such-group/issues failed: 404 Group Not Found\n');
    const time = await suite.run(['issues', 'list', '1', '--created-after', 'yesterday']);
    expect(time.stderr).toBe(
      "svc: error: option '--created-after <time>' argument 'yesterday' is invalid. --created-after must be an ISO 8601 date or time, such as 2026-01-31 or 2026-01-31T12:00:00Z\n",
    );
    expect(time.exitCode).toBe(2);
  });
});
