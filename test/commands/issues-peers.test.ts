// python-gitlab's CLI (Debian's python3-gitlab, installed by .ci/run) lists the same issues as
// `svc issues list` for a filter of each kind: project, group, instance; state, labels, milestone,
// author, assignee, search, iids, times, order. A missing peer fails: the proof must not vanish.
import { describe } from 'vitest';
import { agreeWithPythonGitlab, type PeerCase } from './peer-listing.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });

describe('svc issues list and python-gitlab agree', () => {
  const CASES: PeerCase[] = [
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

  agreeWithPythonGitlab(suite, ['issues', 'list'], CASES);
});
