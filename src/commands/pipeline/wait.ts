import { defineCommand } from '../../cli/spec.js';
import { idDigits, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { WAIT_OPTIONS, WAIT_RENAMES, type WaitFlags } from '../shared/wait.js';
import { followPipeline } from './shared/follow.js';

export const WAIT = defineCommand<WaitFlags>({
  name: 'wait',
  description: 'Wait for a pipeline to end: exit 0 on success, 8 on failed/canceled/skipped/manual or --wait-timeout',
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'pipeline-id', help: 'pipeline id (as in the pipeline URL)', parse: (value) => idDigits('pipeline id', value) },
  ],
  options: WAIT_OPTIONS,
  renamed: WAIT_RENAMES,
  examples: ['svc pipeline wait acme/platform/api 1042 --interval 10 --wait-timeout 3600'],
  async run(ctx, [project, id], flags) {
    const http = await ctx.http();
    await followPipeline(ctx, http, project as string, flags, undefined, id as string);
  },
});
