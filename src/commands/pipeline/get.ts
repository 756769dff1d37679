import type { Context } from '../../context.js';
import { getLatestPipeline, getPipeline, listPipelinesPage } from '../../api/pipelines.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { defineCommand } from '../../cli/spec.js';
import { idDigits, PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { PIPELINE_FIELDS } from './shared/resource.js';

interface GetOptions {
  latest?: boolean;
  ref?: string;
}

export const GET = defineCommand<GetOptions>({
  name: 'get',
  description: 'Show one pipeline by id, or with --latest the newest pipeline of a branch or tag',
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'pipeline-id', help: 'pipeline id (as in the pipeline URL)', parse: (value) => idDigits('pipeline id', value), optional: true },
  ],
  options: [
    { flags: '--latest', help: 'the newest pipeline of --ref instead of one by id' },
    {
      flags: '--ref <ref>',
      help: "with --latest: branch or tag (default: the project's default branch)",
      parse: requiredTextParser('--ref'),
    },
  ],
  examples: [
    'svc pipeline get acme/platform/api 1042',
    'svc pipeline get 42 1042 --fields status,web_url',
    'svc pipeline get acme/platform/api --latest --ref release/2.0 -o json',
  ],
  run: (ctx, [project, id], opts) => run(ctx, project as string, id as string | undefined, opts),
});

async function run(ctx: Context, project: string, id: string | undefined, opts: GetOptions): Promise<void> {
  if (id !== undefined && opts.latest) throw new UsageError('give a pipeline id or --latest, not both');
  if (id === undefined && !opts.latest) throw new UsageError('give a pipeline id, or --latest for the newest pipeline of a ref');
  if (opts.ref !== undefined && !opts.latest) throw new UsageError('--ref applies only with --latest');
  const http = await ctx.http();
  const pipeline = id === undefined ? await latest(http, project, opts.ref) : await getPipeline(http, project, id);
  await ctx.printRecord(pipeline, PIPELINE_FIELDS);
}

/** The service answers "no pipeline for this ref" with a 403; a listing of the ref tells that apart from a refusal. */
async function latest(http: HttpClient, project: string, ref: string | undefined) {
  try {
    return await getLatestPipeline(http, project, ref);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    const query = ref === undefined ? { per_page: 1 } : { ref, per_page: 1 };
    const any = await listPipelinesPage(http, project, query).catch(() => undefined);
    if (any?.length !== 0) throw error;
    const where = ref === undefined ? "the project's default branch" : `ref ${ref}`;
    throw new SvcError(`no pipeline for ${where} in project ${project}`, ExitCode.notFound);
  }
}
