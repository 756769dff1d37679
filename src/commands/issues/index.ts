import { recordWriteVerb } from '../generic/record-write.js';
import { transitionVerb } from '../generic/transition.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { LIST } from './list.js';
import { COMMENT, registerNoteVerbs } from './notes.js';
import { ISSUES } from './shared/resource.js';
import { CREATE, UPDATE } from './write.js';

const issueName = ([project, iid]: unknown[]) => `issue #${String(iid)} of ${String(project)}`;

export const commands = [
  LIST,
  getVerb(ISSUES, {
    description: 'Show one issue, addressed by its iid (the number in the web UI), not its global id',
    examples: ['svc issues get acme/platform/api 12', "svc issues get 42 '#3' -o json"],
  }),
  CREATE,
  UPDATE,
  transitionVerb(ISSUES, {
    name: 'close',
    description: 'Close an issue (closing a closed issue changes nothing and succeeds)',
    body: { state_event: 'close' },
    done: (args) => `closed ${issueName(args)}`,
    examples: ['svc issues close acme/platform/api 12', "svc issues close 42 '#3' -o json"],
  }),
  transitionVerb(ISSUES, {
    name: 'reopen',
    description: 'Reopen a closed issue (reopening an open issue changes nothing and succeeds)',
    body: { state_event: 'reopen' },
    done: (args) => `reopened ${issueName(args)}`,
    examples: ['svc issues reopen acme/platform/api 12'],
  }),
  recordWriteVerb(ISSUES, {
    name: 'delete',
    method: 'DELETE',
    role: 'owner',
    description: 'Delete an issue for good (project owners and administrators only; asks first on a terminal; prints nothing on stdout)',
    confirm: (args) => `Delete ${issueName(args)}`,
    done: (args) => `deleted ${issueName(args)}`,
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
