import { calledOf } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { LIST } from './list.js';
import { COMMENT, registerNoteVerbs } from './notes.js';
import { ISSUES } from './shared/resource.js';
import { CREATE, UPDATE } from './write.js';

/** Close or reopen: a PUT with the state event, answered with the issue. */
function stateEvent(event: 'close' | 'reopen', description: string, examples: string[]) {
  return writeVerb(ISSUES, {
    name: event,
    method: 'PUT',
    description,
    fixed: { state_event: event },
    done: ({ args }) => `${event === 'close' ? 'closed' : 'reopened'} ${calledOf(ISSUES, args)}`,
    examples,
  });
}

export const commands = [
  LIST,
  getVerb(ISSUES, {
    description: 'Show one issue, addressed by its iid (the number in the web UI), not its global id',
    examples: ['svc issues get acme/platform/api 12', "svc issues get 42 '#3' -o json"],
  }),
  CREATE,
  UPDATE,
  stateEvent('close', 'Close an issue (closing a closed issue changes nothing and succeeds)', [
    'svc issues close acme/platform/api 12',
    "svc issues close 42 '#3' -o json",
  ]),
  stateEvent('reopen', 'Reopen a closed issue (reopening an open issue changes nothing and succeeds)', [
    'svc issues reopen acme/platform/api 12',
  ]),
  writeVerb(ISSUES, {
    name: 'delete',
    description: 'Delete an issue for good (project owners and administrators only; asks first on a terminal; prints nothing on stdout)',
    examples: ['svc issues delete acme/platform/api 12', 'svc issues delete 42 3 --yes'],
  }),
  COMMENT,
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

export const register = registerNoteVerbs;
