import { listMembers } from '../../api/members.js';
import { accessLevelName } from '../shared/access-level.js';
import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { memberSource, SOURCE } from './shared/source.js';
import { ADD, REMOVE, UPDATE } from './write.js';

const MEMBERS: Resource = {
  path: '/members',
  params: {},
  // Tables name the level (`developer`); JSON keeps the service's number.
  columns: [
    'id',
    'username',
    'name',
    { field: 'access_level', kind: 'text', show: (level) => accessLevelName(Number(level)) },
    'expires_at',
    'state',
  ],
};

export const commands = [
  listVerb(MEMBERS, {
    description: "List a project's or a group's members with their access levels (inherited ones too with --inherited)",
    filters: [
      ...SOURCE,
      { flags: '--inherited', help: "also members through parent groups and invited groups (the service's /members/all)" },
      { flags: '--query <text>', key: 'query', help: 'only members whose username or name contains the text' },
    ],
    pages: (http, _path, query, opts) => listMembers(http, memberSource(opts), Boolean(opts.inherited), query),
    notes: 'Access levels: 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner.',
    examples: ['svc members list --project acme/api', 'svc members list --group acme --inherited --query jane -o json'],
  }),
  ADD,
  UPDATE,
  REMOVE,
];
