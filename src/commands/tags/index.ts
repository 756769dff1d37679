import type { Resource } from '../generic/resource.js';
import { getVerb } from '../generic/verbs.js';
import { nameParam, PROJECT } from '../shared/args.js';

const TAGS: Resource = {
  path: '/projects/:project/repository/tags',
  id: 'tag',
  params: { project: PROJECT, tag: nameParam('tag', 'tag name, e.g. v1.0.0+build.5 (typed as is; svc encodes it)') },
  fields: ['name', 'commit.id', 'message', 'release.tag_name', 'protected', 'created_at'],
};

export const commands = [
  getVerb(TAGS, {
    description: 'Show one tag',
    examples: ['svc tags get acme/platform/api v1.0.0+build.5', 'svc tags get 42 v1.1.0 --fields name,commit.id'],
  }),
];
