import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getRepositoryFile } from '../../api/repository.js';
import type { RepositoryFile } from '../../api/types.js';
import { SvcError } from '../../errors.js';
import { write, writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef, requiredText, requiredTextParser } from '../shared/args.js';

const FILE_FIELDS = ['file_path', 'size', 'ref', 'blob_id', 'last_commit_id', 'content_sha256'];

interface GetOptions {
  ref: string;
  raw?: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description("Show a file's metadata, or with --raw write its bytes to stdout (binary-safe)")
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<file-path>', 'path of the file in the repository, e.g. docs/guide/intro.md', (value: string) =>
      requiredText('file path', value.replace(/^\/+/, '')),
    )
    .requiredOption('--ref <ref>', 'branch, tag or commit to read the file from', requiredTextParser('--ref'))
    .option('--raw', "write the file's decoded content to stdout instead of its metadata");
  withExamples(command, [
    'svc files get acme/platform/api docs/guide/intro.md --ref main',
    'svc files get acme/platform/api assets/logo.png --ref v1.0.0 --raw > logo.png',
  ]);
  command.action(
    runtime.action<GetOptions>((ctx, [project, filePath], opts) => run(ctx, projectRef(project as string), filePath as string, opts)),
  );
}

export async function run(ctx: Context, project: string, filePath: string, opts: GetOptions): Promise<void> {
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
