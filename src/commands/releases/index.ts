import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { PROJECT } from '../shared/args.js';

const RELEASES: Resource = {
  path: '/projects/:project/releases',
  params: { project: PROJECT },
  columns: ['tag_name', 'name', 'released_at', 'commit.short_id'],
  tokens: ['job'],
};

export const commands = [
  listVerb(RELEASES, {
    description: 'List the releases of a project, newest first',
    examples: ['svc releases list acme/platform/api', 'svc releases list $CI_PROJECT_ID --limit 1 --fields tag_name -o tsv'],
  }),
];
