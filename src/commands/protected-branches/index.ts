import type { OptionSpec } from '../../cli/spec.js';
import type { Column } from '../../output/columns.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { protectionLevel, protectionLevelsCell } from '../shared/access-level.js';
import { nameParam, PROJECT } from '../shared/args.js';
import { withGroupMode } from '../shared/group-rule.js';

const LEVEL_HELP = 'no-one, developer, maintainer or admin (or 0, 30, 40, 60)';
const levels = (field: string): Column => ({ field, show: protectionLevelsCell });
const level = (flag: string, key: string, what: string): OptionSpec => ({
  flags: `${flag} <level>`,
  key,
  help: `who may ${what}: ${LEVEL_HELP}`,
  parse: protectionLevel(flag),
});

/** What protect takes: who may push, merge and unprotect, and the two switches. */
const PROTECT: OptionSpec[] = [
  level('--push', 'push_access_level', 'push (the service defaults to maintainer)'),
  level('--merge', 'merge_access_level', 'merge (the service defaults to maintainer)'),
  level('--unprotect', 'unprotect_access_level', 'unprotect'),
  { flags: '--allow-force-push', key: 'allow_force_push', help: 'let those who may push force-push' },
  { flags: '--code-owner-approval', key: 'code_owner_approval_required', help: 'require code owner approval to merge' },
];

/** A project's protected branches: rules by name or wildcard (`release/*`). */
const PROTECTED_BRANCHES: Resource = {
  path: '/projects/:project/protected_branches',
  id: 'name',
  params: { project: PROJECT, name: nameParam('name', 'branch name or wildcard, e.g. release/* (typed as is; svc encodes it)') },
  columns: ['name', levels('push_access_levels'), levels('merge_access_levels'), 'allow_force_push'],
  fields: [
    'id',
    'name',
    levels('push_access_levels'),
    levels('merge_access_levels'),
    levels('unprotect_access_levels'),
    'allow_force_push',
    'code_owner_approval_required',
  ],
  called: (args) => `protected branch ${String(args[1])} of project ${String(args[0])}`,
  update: {
    fields: [
      { flags: '--allow-force-push', key: 'allow_force_push', help: 'let those who may push force-push' },
      { flags: '--no-allow-force-push', key: 'allow_force_push', help: 'forbid force pushes' },
      { flags: '--code-owner-approval', key: 'code_owner_approval_required', help: 'require code owner approval to merge' },
      { flags: '--no-code-owner-approval', key: 'code_owner_approval_required', help: 'no longer require code owner approval' },
    ],
    atLeastOne: true,
  },
  roles: { list: 'maintainer', get: 'maintainer', protect: 'maintainer', update: 'maintainer', unprotect: 'maintainer' },
};

export const commands = [
  listVerb(PROTECTED_BRANCHES, {
    description: "List a project's protected branches, who may push to and merge into each, and whether force pushes are allowed",
    examples: ['svc protected-branches list acme/platform/api', 'svc protected-branches list 42 -o json'],
  }),
  getVerb(PROTECTED_BRANCHES, {
    description: 'Show one protected branch rule, by its name or wildcard',
    examples: ['svc protected-branches get acme/platform/api main', "svc protected-branches get 42 'release/*' -o json"],
  }),
  withGroupMode(
    writeVerb(PROTECTED_BRANCHES, {
      name: 'protect',
      description: 'Protect a branch, or every branch a wildcard matches, and say who may push and merge',
      path: PROTECTED_BRANCHES.path,
      body: PROTECT,
      nameKey: 'name',
      done: ({ args }) => `protected ${calledOf(PROTECTED_BRANCHES, args).replace('protected branch', 'branch')}`,
      examples: [
        'svc protected-branches protect acme/platform/api develop --push no-one --merge developer',
        "svc protected-branches protect 42 'hotfix/*' --push maintainer --allow-force-push",
      ],
    }),
    'protected_branches',
    'protect',
    PROTECT,
  ),
  writeVerb(PROTECTED_BRANCHES, {
    name: 'update',
    description: 'Allow or forbid force pushes, and require code owner approval or not, on a protected branch',
    method: 'PATCH',
    examples: [
      'svc protected-branches update acme/platform/api develop --allow-force-push',
      "svc protected-branches update 42 'release/*' --no-code-owner-approval",
    ],
  }),
  withGroupMode(
    writeVerb(PROTECTED_BRANCHES, {
      name: 'unprotect',
      description: 'Remove the protection of a branch or wildcard (the branches stay)',
      method: 'DELETE',
      done: ({ args }) => `unprotected ${calledOf(PROTECTED_BRANCHES, args).replace('protected branch', 'branch')}`,
      examples: ['svc protected-branches unprotect acme/platform/api develop', "svc protected-branches unprotect 42 'hotfix/*'"],
    }),
    'protected_branches',
    'unprotect',
    [],
  ),
];
