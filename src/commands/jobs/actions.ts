import { writeVerb } from '../generic/write.js';
import { parseAssignment } from '../shared/assignment.js';
import { JOBS } from './shared/resource.js';

interface Job {
  id: number;
  name: string;
  status: string;
}

export const RETRY = writeVerb<Job>(JOBS, {
  name: 'retry',
  path: '/projects/:project/jobs/:job_id/retry',
  description: 'Run a finished job again; the new job has a new id, printed on stdout',
  done: ({ record: job }) => `job ${job.name} runs again as job ${job.id} (${job.status})`,
  notes: 'The service refuses a job that has not ended yet (403 "Job is not retryable", exit 4).',
  examples: [
    'svc jobs retry acme/platform/api 1234 --fields id',
    'svc jobs log acme/platform/api "$(svc jobs retry 42 1234 -o json --fields id | jq .id)" --follow',
  ],
});

export const CANCEL = writeVerb<Job>(JOBS, {
  name: 'cancel',
  path: '/projects/:project/jobs/:job_id/cancel',
  description: 'Cancel a job that has not ended; one that has is left as it is (exit 0)',
  done: ({ record: job }) =>
    job.status === 'canceled' || job.status === 'canceling'
      ? `job ${job.id} is ${job.status}`
      : `job ${job.id} had already ended ${job.status}; nothing to cancel`,
  examples: ['svc jobs cancel acme/platform/api 1234'],
});

/** `--var K=V`, repeatable, into the service's array of `{key, value}`. */
function jobVariable(text: string, previous: unknown): Array<{ key: string; value: string }> {
  const [key, value] = parseAssignment('--var', text);
  return [...((previous as Array<{ key: string; value: string }> | undefined) ?? []), { key, value }];
}

export const PLAY = writeVerb<Job>(JOBS, {
  name: 'play',
  path: '/projects/:project/jobs/:job_id/play',
  description: 'Start a manual job, with variables for this run',
  body: [
    {
      flags: '--var <key=value>',
      key: 'job_variables_attributes',
      help: 'variable for this run of the job (repeatable)',
      parse: jobVariable,
    },
  ],
  done: ({ record: job }) => `job ${job.id} (${job.name}) is ${job.status}`,
  notes: 'A job that is not manual, or was already played, is refused (400 "Unplayable Job", exit 6).',
  examples: ['svc jobs play acme/platform/api 1236 --var DEPLOY_ENV=production --var DRY_RUN=0'],
});
