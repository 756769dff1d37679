import type { Resource } from '../generic/resource.js';
import { ADMINISTRATOR } from '../generic/role.js';
import { getVerb } from '../generic/verbs.js';

const STATISTICS: Resource = {
  path: '/application/statistics',
  params: {},
  fields: [
    'users',
    'active_users',
    'groups',
    'projects',
    'forks',
    'issues',
    'merge_requests',
    'notes',
    'milestones',
    'snippets',
    'ssh_keys',
  ],
  roles: { statistics: ADMINISTRATOR },
};

export const commands = [
  getVerb(STATISTICS, {
    name: 'statistics',
    path: STATISTICS.path,
    description: 'Show how many users, groups, projects, issues, merge requests, notes and more the instance holds',
    requireToken: true,
    notes:
      'Only administrators may do this. The service gives each count as it displays it: an approximate figure, as a string with ' +
      'thousands separators ("1,234"), also in -o json.',
    examples: ['svc instance statistics', 'svc instance statistics -o json --fields users,active_users'],
  }),
];
