import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { nameParam, PROJECT } from '../shared/args.js';

const BRANCHES: Resource = {
  path: '/projects/:project/repository/branches',
  id: 'branch',
  params: { project: PROJECT, branch: nameParam('branch', 'branch name, e.g. feature/login (typed as is; svc encodes it)') },
};

export const commands = [
  listVerb(BRANCHES, {
    name: 'commits',
    path: '/projects/:project/branches/:branch/commits',
    description: 'List the commits of a branch, newest first',
    columns: ['short_id', 'created_at', 'author_name', 'title'],
    examples: ['svc branches commits acme/platform/api feature/search-v2 --limit 10', 'svc branches commits 42 main --all -o ndjson'],
  }),
];
