import type { Context } from '../../context.js';
import { createPipeline } from '../../api/pipelines.js';
import type { PipelineVariable } from '../../api/types.js';
import { collect } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { readTextFile } from '../shared/local-file.js';
import { WAIT_OPTIONS, WAIT_RENAMES } from '../shared/wait.js';
import { checkPipelineWaitFlags, followPipeline, TREE_OPTIONS, type PipelineWaitFlags } from './shared/follow.js';
import { PIPELINE_FIELDS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

interface CreateOptions extends PipelineWaitFlags {
  ref: string;
  var?: string[];
  varFile?: string[];
  wait?: boolean;
}

export const CREATE = defineCommand<CreateOptions>({
  name: 'create',
  description: 'Trigger a pipeline on a branch or tag, with variables; --wait exits 0 only if it succeeds',
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--ref <ref>', help: 'branch or tag to run the pipeline for', parse: requiredTextParser('--ref'), required: true },
    { flags: '--var <key=value>', help: 'pipeline variable (repeatable)', parse: collect },
    { flags: '--var-file <key=path>', help: 'file-type variable whose content is read from a local file (repeatable)', parse: collect },
    { flags: '--wait', help: 'poll until the pipeline ends: exit 0 on success, 8 on any other final status or --wait-timeout' },
    ...TREE_OPTIONS,
    ...WAIT_OPTIONS,
  ],
  renamed: WAIT_RENAMES,
  examples: [
    'svc pipeline create acme/platform/api --ref main --var DEPLOY_ENV=staging --var-file CONFIG=deploy.yml',
    'svc pipeline create downstream/app --ref main --var UPSTREAM_SHA=$CI_COMMIT_SHA --wait --interval 10 --wait-timeout 1800',
    'svc pipeline create acme/platform/api --ref main --wait --follow-downstream --log-failed=20',
  ],
  run: (ctx, [project], opts) => run(ctx, project as string, opts),
});

async function run(ctx: Context, project: string, opts: CreateOptions): Promise<void> {
  checkPipelineWaitFlags(opts);
  const variables = await pipelineVariables(opts.var ?? [], opts.varFile ?? []);
  const http = await ctx.http({ requireToken: true });
  const pipeline = await createPipeline(http, project, { ref: opts.ref, variables });
  ctx.info(`created pipeline ${pipeline.id} for ${pipeline.ref}: ${pipeline.web_url}`);
  if (!opts.wait) {
    await writeResult(ctx, pipeline, PIPELINE_FIELDS);
    return;
  }
  await followPipeline(ctx, http, project, opts, pipeline, pipeline.id);
}

/** Every variable is checked (and every file read) before the request is sent. */
export async function pipelineVariables(vars: string[], varFiles: string[]): Promise<PipelineVariable[]> {
  const variables: PipelineVariable[] = vars.map((text) => {
    const [key, value] = parseAssignment('--var', text);
    return { key, value };
  });
  for (const text of varFiles) {
    const [key, path] = parseAssignment('--var-file', text, 'PATH');
    variables.push({ key, value: await readTextFile('--var-file', path), variable_type: 'file' });
  }
  return variables;
}
