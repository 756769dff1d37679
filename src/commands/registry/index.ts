import type { Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { idParam, nameParam, PROJECT } from '../shared/args.js';
import { CLEANUP } from './cleanup.js';

const PARAMS = {
  project: PROJECT,
  repository: idParam('repository id', 'registry repository id (svc registry repos lists them)'),
  tag: nameParam('tag', 'tag name, e.g. v1.2.0 (typed as is; svc encodes it)'),
};

/** A project's container image repositories (the service's `/registry/repositories`). */
const REPOSITORIES: Resource = {
  path: '/projects/:project/registry/repositories',
  id: 'repository',
  params: PARAMS,
  columns: ['id', 'path', 'created_at', 'cleanup_policy_started_at'],
  tokens: ['job'],
  roles: { repos: 'reporter' },
};

/** The tags of one repository; the list names them, a tag's details add its digest, date and size. */
const TAGS: Resource = {
  path: '/projects/:project/registry/repositories/:repository/tags',
  id: 'tag',
  params: PARAMS,
  columns: ['name', 'location'],
  fields: ['name', 'path', 'location', 'digest', 'short_revision', 'created_at', 'total_size'],
  tokens: ['job'],
  roles: { tags: 'reporter', tag: 'reporter' },
};

export const commands = [
  listVerb(REPOSITORIES, {
    name: 'repos',
    description: "List a project's container registry repositories (--tags-count adds how many tags each has)",
    filters: [
      { flags: '--tags', key: 'tags', help: 'add the tags of each repository (name, path, location)' },
      { flags: '--tags-count', key: 'tags_count', help: 'add the number of tags of each repository' },
    ],
    columns: (_first, opts) => (opts.tagsCount ? ['id', 'path', 'tags_count', 'created_at'] : (REPOSITORIES.columns as string[])),
    noun: 'registry repositories',
    examples: ['svc registry repos acme/platform/api --tags-count', 'svc registry repos 42 --tags -o json'],
  }),
  listVerb(TAGS, {
    name: 'tags',
    description: "List a registry repository's tags, by name",
    notes: 'The list carries names only; `svc registry tag` shows one tag with its digest, creation time and size.',
    noun: 'tags',
    examples: ['svc registry tags acme/platform/api 7', 'svc registry tags 42 7 -o tsv --fields name'],
  }),
  getVerb(TAGS, {
    name: 'tag',
    description: 'Show one tag of a registry repository: digest, revision, creation time and total size',
    examples: ['svc registry tag acme/platform/api 7 v1.2.0', 'svc registry tag 42 7 latest -o json'],
  }),
  CLEANUP,
];
