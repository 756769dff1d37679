import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import { getProject } from '../../api/projects.js';
import { getRepositoryFile, streamRepositoryFile } from '../../api/repository.js';
import type { HttpClient } from '../../http/client.js';
import { SvcError, UsageError } from '../../errors.js';
import { defineCommand } from '../../cli/spec.js';
import { PROJECT_ARGUMENT, projectRef, requiredText, requiredTextParser } from '../shared/args.js';
import { writeRawBytes } from '../shared/raw-bytes.js';

const FILE_FIELDS = ['file_path', 'size', 'ref', 'blob_id', 'last_commit_id', 'content_sha256'];

interface GetOptions {
  ref?: string;
  raw?: boolean;
}

export const GET = defineCommand<GetOptions>({
  name: 'get',
  description: "Show a file's metadata, or with --raw stream its bytes to stdout (binary-safe; works with a CI job token)",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    {
      name: 'file-path',
      help: 'path of the file in the repository, e.g. docs/guide/intro.md',
      parse: (value) => requiredText('file path', value.replace(/^\/+/, '')),
    },
  ],
  options: [
    {
      flags: '--ref <ref>',
      help: "branch, tag or commit to read the file from (default: the project's default branch)",
      parse: requiredTextParser('--ref'),
    },
    { flags: '--raw', help: "write the file's bytes to stdout instead of its metadata (not to a terminal when binary)" },
  ],
  examples: [
    'svc files get acme/platform/api docs/guide/intro.md --ref main',
    'svc files get acme/platform/api assets/logo.png --ref v1.0.0 --raw > logo.png',
  ],
  run: (ctx, [project, filePath], opts) => run(ctx, project as string, filePath as string, opts),
});

async function run(ctx: Context, project: string, filePath: string, opts: GetOptions): Promise<void> {
  const http = await ctx.http();
  if (opts.raw) return writeRaw(ctx, http, project, filePath, opts.ref);
  const ref = opts.ref ?? (await defaultBranch(http, project));
  // Metadata only: the bytes belong to --raw, which streams them from the raw route.
  const { content: _content, ...metadata } = await getRepositoryFile(http, project, filePath, ref);
  await ctx.printRecord(metadata, FILE_FIELDS);
}

async function defaultBranch(http: HttpClient, project: string): Promise<string> {
  const branch = (await getProject(http, project)).default_branch;
  if (!branch) throw new UsageError(`project ${project} has no default branch (an empty repository?); give --ref`);
  return branch;
}

/** Streams the bytes to stdout and checks them against the SHA-256 the service sends with them. */
async function writeRaw(ctx: Context, http: HttpClient, project: string, filePath: string, ref: string | undefined): Promise<void> {
  const res = await streamRepositoryFile(http, project, filePath, ref);
  const expected = res.headers['x-gitlab-content-sha256'];
  const hash = createHash('sha256');
  await writeRawBytes(ctx, res.data, filePath, (chunk) => hash.update(chunk));
  if (expected && hash.digest('hex') !== expected) {
    throw new SvcError(`${filePath}: the content received does not match its SHA-256 (${expected})`);
  }
}
