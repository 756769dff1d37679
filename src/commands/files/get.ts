import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import { getRepositoryFile } from '../../api/repository.js';
import type { RepositoryFile } from '../../api/types.js';
import { SvcError } from '../../errors.js';
import { write, writeRecord } from '../../output/writer.js';
import { defineCommand } from '../../cli/spec.js';
import { PROJECT_ARGUMENT, projectRef, requiredText, requiredTextParser } from '../shared/args.js';

const FILE_FIELDS = ['file_path', 'size', 'ref', 'blob_id', 'last_commit_id', 'content_sha256'];

interface GetOptions {
  ref: string;
  raw?: boolean;
}

export const GET = defineCommand<GetOptions>({
  name: 'get',
  description: "Show a file's metadata, or with --raw write its bytes to stdout (binary-safe)",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'file-path', help: 'path of the file in the repository, e.g. docs/guide/intro.md', parse: (value) => requiredText('file path', value.replace(/^\/+/, '')) },
  ],
  options: [
    { flags: '--ref <ref>', help: 'branch, tag or commit to read the file from', parse: requiredTextParser('--ref'), required: true },
    { flags: '--raw', help: "write the file's decoded content to stdout instead of its metadata" },
  ],
  examples: [
    'svc files get acme/platform/api docs/guide/intro.md --ref main',
    'svc files get acme/platform/api assets/logo.png --ref v1.0.0 --raw > logo.png',
  ],
  run: (ctx, [project, filePath], opts) => run(ctx, project as string, filePath as string, opts),
});

async function run(ctx: Context, project: string, filePath: string, opts: GetOptions): Promise<void> {
  const http = await ctx.http();
  const file = await getRepositoryFile(http, project, filePath, opts.ref);
  if (opts.raw) {
    await write(ctx.stdout, decodeContent(file));
    return;
  }
  // Metadata only: the content belongs to --raw, where it is decoded and checked.
  const { content: _content, ...metadata } = file;
  await writeRecord(ctx.stdout, ctx.output, metadata, FILE_FIELDS);
}

/** The content as sent (base64 unless stated otherwise), checked against the service's SHA-256. */
export function decodeContent(file: RepositoryFile): Buffer {
  const bytes = Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
  if (file.content_sha256) {
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== file.content_sha256) {
      throw new SvcError(`${file.file_path}: the content received does not match its SHA-256 (${file.content_sha256}); nothing written`);
    }
  }
  return bytes;
}
