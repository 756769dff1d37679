import { getSnippet, updateSnippet, type SnippetFileChange, type SnippetUpdate } from '../../api/snippets.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { refuseEmptyUpdate } from '../generic/write.js';
import { readLocalFile } from '../shared/local-file.js';
import { snippetText } from './shared/content.js';
import { SNIPPET_ARGUMENT, SNIPPET_UPDATE, SNIPPETS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

interface UpdateOptions {
  title?: string;
  description?: string;
  visibility?: string;
  file?: string;
  fileName?: string;
  contentFile?: string;
}

export const UPDATE = defineCommand<UpdateOptions>({
  name: 'update',
  description: "Change one of your snippets: its title, description or visibility, a file's name or content",
  args: [{ name: 'snippet', help: SNIPPET_ARGUMENT.help, parse: SNIPPET_ARGUMENT.parse }],
  options: SNIPPET_UPDATE.fields,
  notes: 'Only the author can change a snippet; anyone else gets "404 Snippet Not Found" (exit 5), administrators included.',
  examples: [
    'svc snippets update 42 --title "nginx conf (prod)" --visibility internal',
    'svc snippets update 42 --content-file ./nginx.conf',
    'kubectl get pods -o yaml | svc snippets update 43 --file pods.yaml --content-file -',
  ],
  run: (ctx, [id], opts) => run(ctx, String(id), opts),
});

async function run(ctx: Context, id: string, opts: UpdateOptions): Promise<void> {
  refuseEmptyUpdate(SNIPPET_UPDATE, opts as Record<string, unknown>);
  const changesFile = opts.fileName !== undefined || opts.contentFile !== undefined;
  if (opts.file !== undefined && !changesFile) throw new UsageError('--file names the file that --file-name or --content-file change');
  const content = opts.contentFile === undefined ? undefined : await newContent(ctx, opts.contentFile);
  const http = await ctx.http({ requireToken: true });
  const update: SnippetUpdate = { title: opts.title, description: opts.description, visibility: opts.visibility };
  if (changesFile) update.files = [await fileChange(http, id, opts, content)];
  const snippet = await updateSnippet(http, id, update);
  ctx.info(`updated snippet ${id}: ${changed(opts).join(', ')}`);
  await writeResult(ctx, snippet, SNIPPETS.fields ?? []);
}

async function newContent(ctx: Context, path: string): Promise<string> {
  const content =
    path === '-'
      ? snippetText(await ctx.readStdin(), 'stdin')
      : snippetText(await readLocalFile('--content-file', path, ctx.signal), `--content-file ${path}`);
  // The service would store an empty file; an empty source is almost always a mistake in the pipe.
  if (!content.trim()) throw new UsageError(path === '-' ? 'nothing on stdin for --content-file -' : `--content-file ${path} is empty`);
  return content;
}

/** A rename is a move (with the new content, if any); a new content alone an update. */
async function fileChange(http: HttpClient, id: string, opts: UpdateOptions, content: string | undefined): Promise<SnippetFileChange> {
  const current = opts.file ?? (await onlyFile(http, id));
  if (opts.fileName !== undefined && opts.fileName !== current) {
    return { action: 'move', previous_path: current, file_path: opts.fileName, content };
  }
  return { action: 'update', file_path: current, content };
}

async function onlyFile(http: HttpClient, id: string): Promise<string> {
  const files = (await getSnippet(http, id)).files ?? [];
  if (files.length !== 1) {
    throw new UsageError(`snippet ${id} has ${files.length} files (${files.map((f) => f.path).join(', ')}): say which one with --file`);
  }
  return files[0]!.path;
}

function changed(opts: UpdateOptions): string[] {
  const names: Array<[unknown, string]> = [
    [opts.title, 'title'],
    [opts.description, 'description'],
    [opts.visibility, 'visibility'],
    [opts.fileName, `file name (${opts.fileName ?? ''})`],
    [opts.contentFile, 'content'],
  ];
  return names.filter(([value]) => value !== undefined).map(([, name]) => name);
}
