import type { Resource } from '../../generic/resource.js';
import { idParam, PROJECT } from '../../shared/args.js';

export const JOB_FIELDS = ['id', 'name', 'stage', 'status', 'ref', 'pipeline.id', 'failure_reason', 'duration', 'web_url'];

export const JOBS: Resource = {
  path: '/projects/:project/jobs',
  id: 'job_id',
  params: { project: PROJECT, job_id: idParam('job id', 'job id (as in the job URL)') },
  columns: ['id', 'name', 'stage', 'status', 'ref', 'pipeline.id', 'created_at'],
  fields: JOB_FIELDS,
};
