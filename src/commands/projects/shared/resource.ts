import type { Resource } from '../../generic/resource.js';
import { PROJECT } from '../../shared/args.js';

export const PROJECT_FIELDS = [
  'id',
  'path_with_namespace',
  'name',
  'description',
  'visibility',
  'default_branch',
  'repository_storage',
  'web_url',
  'created_at',
  'last_activity_at',
];

export const PROJECTS: Resource = {
  path: '/projects',
  id: 'project',
  params: { project: PROJECT },
  fields: PROJECT_FIELDS,
};
