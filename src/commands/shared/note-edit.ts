import type { Command } from 'commander';
import { writeRecordTo } from '../../api/resource.js';
import { addCommand } from '../../cli/build.js';
import { type CommandSpec, defineCommand } from '../../cli/spec.js';
import type { Runtime } from '../../runtime.js';
import { fillPath, itemPath, type PathParam, pathArgs, withHints, type Resource } from '../generic/resource.js';
import { idParam } from './args.js';
import { readNoteBody } from './text-source.js';
import { writeResult } from './outcome.js';

/** The NOTE argument of a comment's verbs: `parent` is what the comments are of, `list` the command that lists them. */
export function noteParam(parent: string, list: string): PathParam {
  return {
    ...idParam('note id', `the comment's id (the id column of ${list})`),
    // The parent's lookup says "Issue Not Found" / "MergeRequest Not Found"; the note's is the bare "Not found".
    notFoundHint: (note, error) =>
      (error.body as { message?: unknown } | undefined)?.message === '404 Not found'
        ? `is ${note} a comment of ${parent}? ${list} lists them`
        : undefined,
  };
}

interface EditOptions {
  body?: string;
  bodyFile?: string;
}

/** `… notes edit PROJECT IID NOTE`: replaces a comment's text, from --body, --body-file or stdin. */
export function noteEditVerb(
  notes: Resource,
  noun: string,
  parent: (args: unknown[]) => string,
  examples: string[],
): CommandSpec<EditOptions> {
  return defineCommand<EditOptions>({
    name: 'edit',
    description: `Replace the text of a comment of ${noun} (your own, or anyone's as a maintainer), from --body, --body-file or stdin`,
    args: pathArgs(notes, itemPath(notes)),
    options: [
      { flags: '--body <text>', help: 'the new text (Markdown)' },
      { flags: '--body-file <path>', help: 'read the new text from a file (- for stdin)' },
    ],
    examples,
    async run(ctx, args, opts) {
      const body = await readNoteBody(ctx, opts);
      const http = await ctx.http({ requireToken: true });
      const template = itemPath(notes);
      const note = await withHints(notes, template, args, async () =>
        writeRecordTo<{ id: number }>(http, 'PUT', await fillPath(ctx, notes, template, args), { body }),
      );
      ctx.info(`edited note ${note.id} of ${parent(args)}`);
      await writeResult(ctx, note, notes.fields ?? []);
    },
  });
}

/** Adds verbs under a noun's `notes` listing, which keeps its own arguments. */
export function addNoteVerbs(noun: Command, runtime: Runtime, verbs: CommandSpec<never>[]): void {
  const notes = noun.commands.find((c) => c.name() === 'notes');
  if (!notes) throw new Error(`svc ${noun.name()} has no notes command to add verbs to`);
  for (const verb of verbs) addCommand(notes, verb, runtime);
}
