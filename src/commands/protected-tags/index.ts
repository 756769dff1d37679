import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { protectionLevel, protectionLevelsCell } from '../shared/access-level.js';
import { nameParam, PROJECT } from '../shared/args.js';
import { withGroupMode } from '../shared/group-rule.js';
import type { OptionSpec } from '../../cli/spec.js';

/** What protect takes: who may create matching tags. */
const PROTECT: OptionSpec[] = [
  {
    flags: '--create <level>',
    key: 'create_access_level',
    help: 'who may create matching tags: no-one, developer, maintainer or admin (or 0, 30, 40, 60; the service defaults to maintainer)',
    parse: protectionLevel('--create'),
  },
];

/** A project's protected tags: rules by name or wildcard (`v*`). */
const PROTECTED_TAGS: Resource = {
  path: '/projects/:project/protected_tags',
  id: 'name',
  params: { project: PROJECT, name: nameParam('name', 'tag name or wildcard, e.g. v* (typed as is; svc encodes it)') },
  columns: ['name', { field: 'create_access_levels', show: protectionLevelsCell }],
  fields: ['name', 'create_access_levels'],
  called: (args) => `tag ${String(args[1])} of project ${String(args[0])}`,
  roles: { list: 'maintainer', get: 'maintainer', protect: 'maintainer', unprotect: 'maintainer' },
};

export const commands = [
  listVerb(PROTECTED_TAGS, {
    description: "List a project's protected tags and who may create each",
    examples: ['svc protected-tags list acme/platform/api', 'svc protected-tags list 42 -o json'],
  }),
  getVerb(PROTECTED_TAGS, {
    description: 'Show one protected tag rule, by its name or wildcard',
    examples: ["svc protected-tags get acme/platform/api 'v*'", "svc protected-tags get 42 'v*' -o json"],
  }),
  withGroupMode(
    writeVerb(PROTECTED_TAGS, {
      name: 'protect',
      description: 'Protect a tag, or every tag a wildcard matches, and say who may create it',
      path: PROTECTED_TAGS.path,
      body: PROTECT,
      nameKey: 'name',
      done: ({ args }) => `protected ${calledOf(PROTECTED_TAGS, args)}`,
      examples: [
        "svc protected-tags protect acme/platform/api 'release-*' --create developer",
        'svc protected-tags protect 42 stable --create no-one',
      ],
    }),
    'protected_tags',
    'protect',
    PROTECT,
  ),
  withGroupMode(
    writeVerb(PROTECTED_TAGS, {
      name: 'unprotect',
      description: 'Remove the protection of a tag or wildcard (the tags stay)',
      method: 'DELETE',
      done: ({ args }) => `unprotected ${calledOf(PROTECTED_TAGS, args)}`,
      examples: ["svc protected-tags unprotect acme/platform/api 'release-*'", 'svc protected-tags unprotect 42 stable'],
    }),
    'protected_tags',
    'unprotect',
    [],
  ),
];
