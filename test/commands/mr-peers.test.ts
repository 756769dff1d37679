// python-gitlab's CLI (Debian's python3-gitlab, installed by .ci/run) lists the same merge
// requests as `svc mr list` for a filter of each kind: project, group, instance; state, labels,
// branches, author, reviewer, search, draft, order. A missing peer fails: the proof must not vanish.
import { describe } from 'vitest';
import { agreeWithPythonGitlab, type PeerCase } from './peer-listing.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });

describe('svc mr list and python-gitlab agree', () => {
  const CASES: PeerCase[] = [
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

  agreeWithPythonGitlab(suite, ['mr', 'list'], CASES);
});
