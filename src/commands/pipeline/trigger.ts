import type { Context } from '../../context.js';
import { triggerPipeline } from '../../api/triggers.js';
import { collect } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError, redactSecrets } from '../../http/api-error.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { WAIT_OPTIONS, WAIT_RENAMES } from '../shared/wait.js';
import { checkPipelineWaitFlags, followPipeline, TREE_OPTIONS, type PipelineWaitFlags } from './shared/follow.js';
import { PIPELINE_FIELDS } from './shared/resource.js';

interface TriggerOptions extends PipelineWaitFlags {
  ref: string;
  var?: string[];
  triggerToken?: string;
  wait?: boolean;
}

export const TRIGGER = defineCommand<TriggerOptions>({
  name: 'trigger',
  description: 'Start a pipeline with a trigger token or the CI job token (no personal token needed); --wait as `pipeline wait`',
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--ref <ref>', help: 'branch or tag to run the pipeline for', parse: requiredTextParser('--ref'), required: true },
    { flags: '--var <key=value>', help: 'pipeline variable (repeatable)', parse: collect },
    {
      flags: '--trigger-token <token>',
      help: 'pipeline trigger token, also written --token after the verb (default: SVC_TRIGGER_TOKEN, else CI_JOB_TOKEN)',
    },
    { flags: '--wait', help: 'poll until the pipeline ends: exit 0 on success, 8 on any other final status or --wait-timeout' },
    ...TREE_OPTIONS,
    ...WAIT_OPTIONS,
  ],
  renamed: WAIT_RENAMES,
  ownSpellings: { '--token': '--trigger-token' },
  notes:
    'The trigger token is a secret: it is sent in the request body, never in the URL, and never printed. ' +
    'With --wait the pipeline is read with the usual credentials (a --token before the noun, SVC_TOKEN, the profile, or CI_JOB_TOKEN).',
  examples: [
    'svc pipeline trigger downstream/app --ref main --token "$DEPLOY_TRIGGER_TOKEN" --var UPSTREAM_SHA=$CI_COMMIT_SHA',
    'svc pipeline trigger downstream/app --ref main --wait --follow-downstream --log-failed',
  ],
  run: (ctx, [project], opts) => run(ctx, project as string, opts),
});

async function run(ctx: Context, project: string, opts: TriggerOptions): Promise<void> {
  checkPipelineWaitFlags(opts);
  const variables: Record<string, string> = {};
  for (const text of opts.var ?? []) {
    const [key, value] = parseAssignment('--var', text);
    variables[key] = value;
  }
  const token = opts.triggerToken || ctx.env.SVC_TRIGGER_TOKEN || ctx.env.CI_JOB_TOKEN;
  if (!token) {
    // `svc --token T pipeline trigger` gave T as the access token: the trigger token goes after the verb.
    const where = ctx.globals.token
      ? 'a --token before `pipeline` is the access token; give the trigger token after the verb (--token or --trigger-token) or in SVC_TRIGGER_TOKEN'
      : 'pass --token (or --trigger-token) after the verb, set SVC_TRIGGER_TOKEN, or run in a CI job (CI_JOB_TOKEN)';
    throw new UsageError(`no trigger token: ${where}`);
  }
  const target = await ctx.target();
  // The trigger route takes the token in the body and no credentials.
  const anonymous = await ctx.createHttp({ baseUrl: target.url!.value, caFile: target.caFile });
  let pipeline;
  try {
    pipeline = await triggerPipeline(anonymous, project, { token, ref: opts.ref, variables });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new SvcError(
        `project ${project} did not take the trigger token (unknown project, or a token it does not accept): 404`,
        ExitCode.notFound,
      );
    }
    if (error instanceof Error) error.message = redactSecrets(error.message, [token]);
    throw error;
  }
  ctx.info(`triggered pipeline ${pipeline.id} for ${pipeline.ref}: ${pipeline.web_url}`);
  if (!opts.wait) {
    await ctx.printRecord(pipeline, PIPELINE_FIELDS);
    return;
  }
  await followPipeline(ctx, await ctx.http(), project, opts, pipeline, pipeline.id);
}
