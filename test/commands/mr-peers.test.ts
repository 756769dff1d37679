// python-gitlab's CLI (Debian's python3-gitlab, installed by .ci/run) lists the same merge
// requests as `svc mr list` for a filter of each kind: project, group, instance; state, labels,
// branches, author, reviewer, search, draft, order. A missing peer fails: the proof must not vanish.
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
  return (JSON.parse(r.stdout) as Array<{ id: number }>).map((m) => m.id);
}

async function svcIds(args: string[]): Promise<number[]> {
  const r = await suite.run(['mr', 'list', ...args, '--all', '-o', 'json']);
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: number }>).map((m) => m.id);
}

describe('svc mr list and python-gitlab agree', () => {
  it('the peer is installed', () => {
    expect(existsSync(PEER)).toBe(true);
  });

  /** Name, svc's arguments, the peer's (`{username}` stands for the user's id), how many merge requests match. */
  const CASES: Array<[string, string[], string[], number]> = [
    ['project, state', ['1', '--state', 'opened'], ['project-merge-request', 'list', '--project-id', '1', '--state', 'opened'], 4],
    ['project, labels', ['1', '--labels', 'bug'], ['project-merge-request', 'list', '--project-id', '1', '--labels', 'bug'], 3],
    [
      'project, target branch, order',
      ['1', '--target-branch', 'main', '--order-by', 'title', '--sort', 'asc'],
      ['project-merge-request', 'list', '--project-id', '1', '--target-branch', 'main', '--order-by', 'title', '--sort', 'asc'],
      5,
    ],
    [
      'group, source branch',
      ['--group', '1', '--source-branch', 'develop'],
      ['group-merge-request', 'list', '--group-id', '1', '--source-branch', 'develop'],
      4,
    ],
    [
      'group, author',
      ['--group', '1', '--author', 'olivia.garcia'],
      ['group-merge-request', 'list', '--group-id', '1', '--author-id', '{olivia.garcia}'],
      2,
    ],
    [
      'instance, reviewer',
      ['--instance', '--scope', 'all', '--reviewer', 'jdoe'],
      ['merge-request', 'list', '--scope', 'all', '--reviewer-username', 'jdoe'],
      3,
    ],
    [
      'instance, search',
      ['--instance', '--scope', 'all', '--search', 'login'],
      ['merge-request', 'list', '--scope', 'all', '--search', 'login'],
      9,
    ],
    ['project, draft', ['1', '--draft', 'yes'], ['project-merge-request', 'list', '--project-id', '1', '--wip', 'yes'], 1],
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
