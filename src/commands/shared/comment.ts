import { sendRequest } from '../../api/resource.js';
import { type CommandSpec, defineCommand } from '../../cli/spec.js';
import { fillPath, pathArgs, withHints, type Resource } from '../generic/resource.js';
import { writeResult } from './outcome.js';
import { readNoteBody } from './text-source.js';

interface CommentOptions {
  body?: string;
  bodyFile?: string;
}

interface QuickActionsOnly {
  summary?: string[];
}

export interface CommentVerb {
  description: string;
  /** What is commented on, in words: `issue #12 of acme/api`, `!12 of acme/api`. */
  parent: (args: unknown[]) => string;
  examples: string[];
}

/** `… comment PROJECT IID`: adds a comment from --body, --body-file or stdin, and says so on stderr. */
export function commentVerb(notes: Resource, verb: CommentVerb): CommandSpec<CommentOptions> {
  return defineCommand<CommentOptions>({
    name: 'comment',
    description: verb.description,
    args: pathArgs(notes, notes.path),
    options: [
      { flags: '--body <text>', help: 'the comment (Markdown)' },
      { flags: '--body-file <path>', help: 'read the comment from a file (- for stdin)' },
    ],
    notes: 'A comment made only of quick actions creates no comment: svc says what they did and prints nothing on stdout.',
    examples: verb.examples,
    async run(ctx, args, opts) {
      const body = await readNoteBody(ctx, opts);
      const http = await ctx.http({ requireToken: true });
      const res = await withHints(notes, notes.path, args, async () =>
        sendRequest(http, 'POST', await fillPath(ctx, notes, notes.path, args), { body }),
      );
      // 202: the comment was only quick actions; the service ran them and kept no comment.
      if (res.status === 202) {
        const summary = (res.data as QuickActionsOnly).summary ?? [];
        ctx.info(`${verb.parent(args)}: only quick actions, no comment: ${summary.join(' ') || 'nothing changed'}`);
        return;
      }
      const note = res.data as { id: number };
      ctx.info(`commented on ${verb.parent(args)} (note ${note.id})`);
      await writeResult(ctx, note, notes.fields ?? []);
    },
  });
}
