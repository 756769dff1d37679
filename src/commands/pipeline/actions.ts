import type { Pipeline } from '../../api/types.js';
import { writeVerb } from '../generic/write.js';
import { ACTIVE_PIPELINE_STATUSES } from '../../workflows/pipelines/tree.js';
import { PIPELINES } from './shared/resource.js';

export const CANCEL = writeVerb<Pipeline>(PIPELINES, {
  name: 'cancel',
  path: '/projects/:project/pipelines/:pipeline_id/cancel',
  description: 'Cancel the running and pending jobs of a pipeline; one that already ended is left as it is (exit 0)',
  done: ({ record: pipeline }) =>
    ['canceled', 'canceling'].includes(pipeline.status)
      ? `pipeline ${pipeline.id} is ${pipeline.status}`
      : `pipeline ${pipeline.id} had already ended ${pipeline.status}; nothing to cancel`,
  examples: ['svc pipeline cancel acme/platform/api 1042'],
});

export const RETRY = writeVerb<Pipeline>(PIPELINES, {
  name: 'retry',
  path: '/projects/:project/pipelines/:pipeline_id/retry',
  description: 'Retry the failed and canceled jobs of a pipeline (each gets a new job id); follow it with `svc pipeline wait`',
  done: ({ record: pipeline }) =>
    ACTIVE_PIPELINE_STATUSES.has(pipeline.status)
      ? `pipeline ${pipeline.id} is ${pipeline.status} again`
      : `pipeline ${pipeline.id} is ${pipeline.status}; it had no failed or canceled job to retry`,
  examples: ['svc pipeline retry acme/platform/api 1042 && svc pipeline wait acme/platform/api 1042'],
});
