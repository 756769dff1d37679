import { cancelPipeline, retryPipeline } from '../../api/pipelines.js';
import type { Pipeline } from '../../api/types.js';
import type { HttpClient } from '../../http/client.js';
import { writeRecord } from '../../output/writer.js';
import { defineCommand } from '../../cli/spec.js';
import { idDigits, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { ACTIVE_PIPELINE_STATUSES } from './shared/follow.js';
import { PIPELINE_FIELDS } from './shared/resource.js';

interface Action {
  name: string;
  description: string;
  call: (http: HttpClient, project: string, id: string) => Promise<Pipeline>;
  /** What is said on stderr, from the pipeline the service returned. */
  outcome: (pipeline: Pipeline) => string;
  examples: string[];
}

function pipelineAction(action: Action) {
  return defineCommand({
    name: action.name,
    description: action.description,
    args: [
      { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
      { name: 'pipeline-id', help: 'pipeline id (as in the pipeline URL)', parse: (value) => idDigits('pipeline id', value) },
    ],
    examples: action.examples,
    async run(ctx, [project, id]) {
      const http = await ctx.http({ requireToken: true });
      const pipeline = await action.call(http, project as string, id as string);
      ctx.info(action.outcome(pipeline));
      await writeRecord(ctx.stdout, ctx.output, pipeline, PIPELINE_FIELDS);
    },
  });
}

export const CANCEL = pipelineAction({
  name: 'cancel',
  description: 'Cancel the running and pending jobs of a pipeline; one that already ended is left as it is (exit 0)',
  call: cancelPipeline,
  outcome: (pipeline) =>
    ['canceled', 'canceling'].includes(pipeline.status)
      ? `pipeline ${pipeline.id} is ${pipeline.status}`
      : `pipeline ${pipeline.id} had already ended ${pipeline.status}; nothing to cancel`,
  examples: ['svc pipeline cancel acme/platform/api 1042'],
});

export const RETRY = pipelineAction({
  name: 'retry',
  description: 'Retry the failed and canceled jobs of a pipeline (each gets a new job id); follow it with `svc pipeline wait`',
  call: retryPipeline,
  outcome: (pipeline) =>
    ACTIVE_PIPELINE_STATUSES.has(pipeline.status)
      ? `pipeline ${pipeline.id} is ${pipeline.status} again`
      : `pipeline ${pipeline.id} is ${pipeline.status}; it had no failed or canceled job to retry`,
  examples: ['svc pipeline retry acme/platform/api 1042 && svc pipeline wait acme/platform/api 1042'],
});
