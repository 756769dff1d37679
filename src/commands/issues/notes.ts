import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import type { Resource } from '../generic/resource.js';
import { writeVerb } from '../generic/write.js';
import { ISSUES } from './shared/resource.js';
import { commentVerb } from '../shared/comment.js';
import { addNoteVerbs, noteEditVerb, noteParam } from '../shared/note-edit.js';

const NOTES: Resource = {
  path: '/projects/:project/issues/:iid/notes',
  id: 'note',
  params: {
    ...ISSUES.params,
    note: noteParam('this issue', 'svc issues notes'),
  },
  fields: ['id', 'author.username', 'created_at', 'body'],
  called: ([project, iid, note]) => `note ${String(note)} of issue #${String(iid)} of ${String(project)}`,
  roles: { delete: 'maintainer' },
  confirmDelete: true,
};

export const COMMENT = commentVerb(NOTES, {
  description: 'Comment on an issue, from --body, --body-file or stdin (quick actions such as /close work)',
  parent: ([project, iid]) => `issue #${String(iid)} of ${String(project)}`,
  examples: [
    'svc issues comment acme/platform/api 12 --body "Fixed on main by !34"',
    'tail -n 20 build.log | svc issues comment 42 3',
    "svc issues comment 42 3 --body '/close'",
  ],
});

export const NOTE_DELETE = writeVerb(NOTES, {
  name: 'delete',
  description: "Delete a comment of an issue (your own, or anyone's as a maintainer; asks first on a terminal; prints nothing on stdout)",
  examples: ['svc issues notes delete acme/platform/api 12 3051', 'svc issues notes delete 42 3 3051 --yes'],
});

export const NOTE_EDIT = noteEditVerb(NOTES, 'an issue', ([project, iid]) => `issue #${String(iid)} of ${String(project)}`, [
  'svc issues notes edit acme/platform/api 12 3051 --body "Fixed on main by !34"',
  'svc issues notes edit 42 3 3051 --body-file - < summary.md',
]);

/** `svc issues notes delete|edit …` live under the `notes` listing, which keeps its own arguments. */
export function registerNoteVerbs(noun: Command, runtime: Runtime): void {
  addNoteVerbs(noun, runtime, [NOTE_DELETE, NOTE_EDIT]);
}
