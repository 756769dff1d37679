import { getVerb, listVerb } from '../generic/verbs.js';
import { LIST } from './list.js';
import { ISSUES } from './shared/resource.js';

export const commands = [
  LIST,
  getVerb(ISSUES, {
    description: 'Show one issue, addressed by its iid (the number in the web UI), not its global id',
    examples: ['svc issues get acme/platform/api 12', "svc issues get 42 '#3' -o json"],
  }),
  listVerb(ISSUES, {
    name: 'notes',
    path: '/projects/:project/issues/:iid/notes',
    description: 'List the comments of an issue, addressed by its iid (the number in the web UI)',
    filters: [{ flags: '--sort <direction>', key: 'sort', help: 'by creation time (service default: desc)', choices: ['asc', 'desc'] }],
    columns: ['id', 'author.username', 'created_at', 'system', 'body'],
    examples: [
      'svc issues notes acme/platform/api 12 --all --sort asc',
      'svc issues notes 42 3 -o ndjson --fields id,author.username,body',
    ],
  }),
];
