import type { Resource } from '../../generic/resource.js';
import { idParam, PROJECT } from '../../shared/args.js';

export const PIPELINE_FIELDS = ['id', 'status', 'ref', 'sha', 'source', 'created_at', 'web_url'];

export const PIPELINE_SOURCES = [
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
] as const;

export const PIPELINES: Resource = {
  path: '/projects/:project/pipelines',
  id: 'pipeline_id',
  params: { project: PROJECT, pipeline_id: idParam('pipeline id', 'pipeline id (as in the pipeline URL)') },
  columns: ['id', 'status', 'ref', 'sha', 'source', 'created_at'],
  fields: PIPELINE_FIELDS,
};
