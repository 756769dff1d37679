import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { listIssueNotes } from '../../api/issues.js';
import type { Note } from '../../api/types.js';
import type { Page } from '../../http/client.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { numericId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { addListOptions, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { IID_ARGUMENT_HELP, withIidHint } from './iid.js';

interface NotesOptions extends ListFlags {
  sort?: 'asc' | 'desc';
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('notes')
    .description("List the comments of an issue, addressed by its iid (the number in the web UI)")
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<iid>', IID_ARGUMENT_HELP)
    .addOption(new Option('--sort <direction>', 'by creation time (service default: desc)').choices(['asc', 'desc']));
  addListOptions(command);
  withExamples(command, ['svc issues notes acme/platform/api 12 --all --sort asc', 'svc issues notes 42 3 -o ndjson --fields id,author.username,body']);
  command.action(
    runtime.action<NotesOptions>((ctx, [project, iid], opts) => run(ctx, projectRef(project as string), numericId('iid', iid as string), opts)),
  );
}

export async function run(ctx: Context, project: string, iid: number, opts: NotesOptions): Promise<void> {
  const http = await ctx.http();
  const pages = listIssueNotes(http, project, iid, { sort: opts.sort, perPage: perPageFor(opts) });
  await outputList(ctx, hinted(iid, pages), opts, ['id', 'author.username', 'created_at', 'system', 'body']);
}

async function* hinted(iid: number, pages: AsyncGenerator<Page<Note>>): AsyncGenerator<Page<Note>> {
  for (;;) {
    const next = await withIidHint(iid, () => pages.next());
    if (next.done) return;
    yield next.value;
  }
}
