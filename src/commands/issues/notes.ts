import type { Command } from 'commander';
import { sendRequest } from '../../api/resource.js';
import { defineCommand } from '../../cli/spec.js';
import type { Runtime } from '../../runtime.js';
import { fillPath, withHints, type Resource } from '../generic/resource.js';
import { actionVerb } from '../generic/verbs.js';
import { ISSUE_ARGS, ISSUES } from './shared/resource.js';
import { addNoteVerbs, noteEditVerb, noteParam } from './shared/note-edit.js';
import { readText } from './shared/text-source.js';
import { writeResult } from '../shared/outcome.js';

const NOTES: Resource = {
  path: '/projects/:project/issues/:iid/notes',
  id: 'note',
  params: {
    ...ISSUES.params,
    note: noteParam('this issue', 'svc issues notes'),
  },
  fields: ['id', 'author.username', 'created_at', 'body'],
};

interface CommentOptions {
  body?: string;
  bodyFile?: string;
}

interface QuickActionsOnly {
  summary?: string[];
}

export const COMMENT = defineCommand<CommentOptions>({
  name: 'comment',
  description: 'Comment on an issue, from --body, --body-file or stdin (quick actions such as /close work)',
  args: ISSUE_ARGS,
  options: [
    { flags: '--body <text>', help: 'the comment (Markdown)' },
    { flags: '--body-file <path>', help: 'read the comment from a file (- for stdin)' },
  ],
  notes: 'A comment made only of quick actions creates no comment: svc says what they did and prints nothing on stdout.',
  examples: [
    'svc issues comment acme/platform/api 12 --body "Fixed on main by !34"',
    'tail -n 20 build.log | svc issues comment 42 3',
    "svc issues comment 42 3 --body '/close'",
  ],
  async run(ctx, args, opts) {
    const body = await readText(ctx, {
      inline: { flag: '--body', value: opts.body },
      file: { flag: '--body-file', value: opts.bodyFile },
      stdin: true,
      required: true,
    });
    const http = await ctx.http({ requireToken: true });
    const res = await withHints(NOTES, NOTES.path, args, async () =>
      sendRequest(http, 'POST', await fillPath(ctx, NOTES, NOTES.path, args), { body }),
    );
    const [project, iid] = args as [string, string];
    if (res.status === 202) {
      const summary = (res.data as QuickActionsOnly).summary ?? [];
      ctx.info(`issue #${iid} of ${project}: only quick actions, no comment: ${summary.join(' ') || 'nothing changed'}`);
      return;
    }
    const note = res.data as { id: number };
    ctx.info(`commented on issue #${iid} of ${project} (note ${note.id})`);
    await writeResult(ctx, note, NOTES.fields ?? []);
  },
});

export const NOTE_DELETE = actionVerb(NOTES, {
  name: 'delete',
  method: 'DELETE',
  description: "Delete a comment of an issue (your own, or anyone's as a maintainer; prints nothing on stdout)",
  done: ([project, iid, note]) => `deleted note ${String(note)} of issue #${String(iid)} of ${String(project)}`,
  scheduled: ([project, iid, note]) => `deleting note ${String(note)} of issue #${String(iid)} of ${String(project)} was accepted`,
  examples: ['svc issues notes delete acme/platform/api 12 3051'],
});

export const NOTE_EDIT = noteEditVerb(NOTES, 'an issue', ([project, iid]) => `issue #${String(iid)} of ${String(project)}`, [
  'svc issues notes edit acme/platform/api 12 3051 --body "Fixed on main by !34"',
  'svc issues notes edit 42 3 3051 --body-file - < summary.md',
]);

/** `svc issues notes delete|edit …` live under the `notes` listing, which keeps its own arguments. */
export function registerNoteVerbs(noun: Command, runtime: Runtime): void {
  addNoteVerbs(noun, runtime, [NOTE_DELETE, NOTE_EDIT]);
}
