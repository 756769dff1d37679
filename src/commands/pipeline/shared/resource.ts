import type { Resource } from '../../generic/resource.js';
import { idParam, PROJECT } from '../../shared/args.js';

export const PIPELINE_FIELDS = ['id', 'status', 'ref', 'sha', 'source', 'created_at', 'web_url'];

export const PIPELINES: Resource = {
  path: '/projects/:project/pipelines',
  id: 'pipeline_id',
  params: { project: PROJECT, pipeline_id: idParam('pipeline id', 'pipeline id (as in the pipeline URL)') },
  fields: PIPELINE_FIELDS,
};
