import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createPipeline } from '../../api/pipelines.js';
import type { PipelineVariable } from '../../api/types.js';
import { writeRecord } from '../../output/writer.js';
import { collect, withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { readTextFile } from '../shared/local-file.js';
import { addWaitOptions, type WaitFlags } from '../shared/wait.js';
import { followPipeline, PIPELINE_FIELDS } from './follow.js';

interface CreateOptions extends WaitFlags {
  ref: string;
  var?: string[];
  varFile?: string[];
  wait?: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('create')
    .description('Trigger a pipeline on a branch or tag, with variables; --wait exits 0 only if it succeeds')
    .argument('<project>', PROJECT_ARGUMENT)
    .requiredOption('--ref <ref>', 'branch or tag to run the pipeline for', requiredTextParser('--ref'))
    .option('--var <key=value>', 'pipeline variable (repeatable)', collect)
    .option('--var-file <key=path>', 'file-type variable whose content is read from a local file (repeatable)', collect)
    .option('--wait', 'poll until the pipeline ends: exit 0 on success, 8 on any other final status or --timeout');
  addWaitOptions(command);
  withExamples(command, [
    'svc pipeline create acme/platform/api --ref main --var DEPLOY_ENV=staging --var-file CONFIG=deploy.yml',
    'svc pipeline create downstream/app --ref main --var UPSTREAM_SHA=$CI_COMMIT_SHA --wait --interval 10 --timeout 1800',
  ]);
  command.action(runtime.action<CreateOptions>((ctx, [project], opts) => run(ctx, projectRef(project as string), opts)));
}

export async function run(ctx: Context, project: string, opts: CreateOptions): Promise<void> {
  const variables = await pipelineVariables(opts.var ?? [], opts.varFile ?? []);
  const http = await ctx.http({ requireToken: true });
  const pipeline = await createPipeline(http, project, { ref: opts.ref, variables });
  ctx.info(`created pipeline ${pipeline.id} for ${pipeline.ref}: ${pipeline.web_url}`);
  if (!opts.wait) {
    await writeRecord(ctx.stdout, ctx.output, pipeline, PIPELINE_FIELDS);
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
