// python-gitlab's CLI (Debian's python3-gitlab, installed by .ci/run) lists the same issues as
// `svc issues list` for a filter of each kind: project, group, instance; state, labels, milestone,
// author, assignee, search, iids, times, order. A missing peer fails: the proof must not vanish.
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const PEER = '/usr/bin/python-gitlab';

async function peerIds(args: string[]): Promise<number[]> {
  const { url, tokens } = suite.sandbox;
  const r = await execa(PEER, ['--server-url', url, '--private-token', tokens.admin, '-o', 'json', ...args, '--get-all'], {
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as Array<{ id: number }>).map((i) => i.id);
}

async function svcIds(args: string[]): Promise<number[]> {
  const r = await suite.run(['issues', 'list', ...args, '--all', '-o', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: number }>).map((i) => i.id);
}

describe('svc issues list and python-gitlab agree', () => {
  it('the peer is installed', () => {
    expect(existsSync(PEER)).toBe(true);
  });

  /** Name, svc's arguments, the peer's (`{username}` stands for the user's id), how many issues match. */
  const CASES: Array<[string, string[], string[], number]> = [
    ['project, state', ['1', '--state', 'opened'], ['project-issue', 'list', '--project-id', '1', '--state', 'opened'], 5],
    [
      'project, labels and milestone',
      ['1', '--labels', 'bug', '--milestone', 'v1.0'],
      ['project-issue', 'list', '--project-id', '1', '--labels', 'bug', '--milestone', 'v1.0'],
      2,
    ],
    ['project, iids', ['2', '--iids', '1,3'], ['project-issue', 'list', '--project-id', '2', '--iids', '1,3'], 2],
    [
      'project, created after, order',
      ['4', '--created-after', '2020-01-01T00:00:00Z', '--order-by', 'updated_at', '--sort', 'asc'],
      [
        'project-issue',
        'list',
        '--project-id',
        '4',
        '--created-after',
        '2020-01-01T00:00:00Z',
        '--order-by',
        'updated_at',
        '--sort',
        'asc',
      ],
      8,
    ],
    [
      'group, author',
      ['--group', '1', '--author', 'erin.walker'],
      ['group-issue', 'list', '--group-id', '1', '--author-id', '{erin.walker}'],
      3,
    ],
    ['group, assignee', ['--group', '1', '--assignee', 'Any'], ['group-issue', 'list', '--group-id', '1', '--assignee-id', 'Any'], 5],
    ['instance, search', ['--instance', '--search', 'crash'], ['issue', 'list', '--scope', 'all', '--search', 'crash'], 2],
    [
      'instance, state and labels',
      ['--instance', '--state', 'closed', '--labels', 'feature'],
      ['issue', 'list', '--scope', 'all', '--state', 'closed', '--labels', 'feature'],
      6,
    ],
  ];

  for (const [name, svcArgs, peerArgs, count] of CASES) {
    it(name, async () => {
      const ours = await svcIds(svcArgs);
      expect(ours).toHaveLength(count);
      const ids = peerArgs.map((arg) =>
        arg.replace(/^\{(.+)\}$/, (_m, username: string) => String(suite.sandbox.state.user(username)!.id)),
      );
      expect(await peerIds(ids)).toEqual(ours);
    });
  }
});
