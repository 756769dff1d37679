import { getSnippet, streamSnippetContent, streamSnippetFile } from '../../api/snippets.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { requiredTextParser } from '../shared/args.js';
import { writeRawBytes } from '../shared/raw-bytes.js';
import { SNIPPET_ARGUMENT } from './shared/resource.js';

export const RAW = defineCommand<{ file?: string }>({
  name: 'raw',
  description: "Write a snippet's content to stdout byte for byte: its first file, or the one --file names (not to a terminal when binary)",
  args: [{ name: 'snippet', help: SNIPPET_ARGUMENT.help, parse: SNIPPET_ARGUMENT.parse }],
  options: [
    {
      flags: '--file <name>',
      help: 'the file to write, for a snippet with several (their names: svc snippets get ID --fields files)',
      parse: requiredTextParser('--file'),
    },
  ],
  examples: ['svc snippets raw 42 > nginx.conf', 'svc snippets raw 42 --file docker-compose.yml > docker-compose.yml'],
  run: (ctx, [id], opts) => run(ctx, String(id), opts.file),
});

async function run(ctx: Context, id: string, fileName: string | undefined): Promise<void> {
  const http = await ctx.http();
  if (fileName === undefined) {
    const res = await streamSnippetContent(http, id);
    return writeRawBytes(ctx, res.data, `snippet ${id}`);
  }
  const ref = await fileRef(http, id, fileName);
  const res = await streamSnippetFile(http, id, ref, fileName);
  await writeRawBytes(ctx, res.data, fileName);
}

/**
 * The branch of the snippet's repository that holds the file, read from the file's raw URL
 * (`…/-/snippets/42/raw/<branch>/<path>`); a file the snippet lacks is refused with its file names.
 */
async function fileRef(http: HttpClient, id: string, fileName: string): Promise<string> {
  const files = (await getSnippet(http, id)).files ?? [];
  const file = files.find((f) => f.path === fileName);
  if (!file) {
    const names = files.map((f) => f.path).join(', ') || 'none';
    throw new SvcError(`snippet ${id} has no file ${fileName}; its files: ${names}`, ExitCode.notFound);
  }
  const branch = /\/-\/snippets\/\d+\/raw\/([^/]+)\//.exec(new URL(file.raw_url).pathname)?.[1];
  if (!branch) throw new SvcError(`snippet ${id}: cannot tell the branch of ${fileName} from its raw URL ${file.raw_url}`);
  return decodeURIComponent(branch);
}
