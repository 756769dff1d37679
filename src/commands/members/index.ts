import { listVerb } from '../generic/verbs.js';
import { MEMBERS } from './shared/source.js';
import { ADD, REMOVE, UPDATE } from './write.js';

export const commands = [
  listVerb(MEMBERS, {
    description: "List a project's or a group's members with their access levels (inherited ones too with --inherited)",
    alternatives: [
      {
        flags: '--inherited',
        help: "also members through parent groups and invited groups (the service's /members/all)",
        path: '/members/all',
      },
    ],
    filters: [{ flags: '--query <text>', key: 'query', help: 'only members whose username or name contains the text' }],
    notes: 'Access levels: 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner.',
    examples: ['svc members list --project acme/api', 'svc members list --group acme --inherited --query jane -o json'],
  }),
  ADD,
  UPDATE,
  REMOVE,
];
