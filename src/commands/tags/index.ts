import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { nameParam, PROJECT, requiredTextParser } from '../shared/args.js';

const TAGS: Resource = {
  path: '/projects/:project/repository/tags',
  id: 'tag',
  params: { project: PROJECT, tag: nameParam('tag', 'tag name, e.g. v1.0.0+build.5 (typed as is; svc encodes it)') },
  columns: ['name', 'commit.short_id', 'commit.committed_date', 'protected', 'message'],
  fields: ['name', 'commit.id', 'message', 'release.tag_name', 'protected', 'created_at'],
  called: (args) => `tag ${String(args[1])} of project ${String(args[0])}`,
  create: [
    {
      flags: '--ref <ref>',
      key: 'ref',
      help: 'the branch, tag or commit SHA to tag',
      required: true,
      parse: requiredTextParser('--ref'),
    },
    { flags: '--message <text>', key: 'message', help: 'the message of an annotated tag (without it the tag is lightweight)' },
  ],
  roles: { create: 'developer', delete: 'developer' },
  confirmDelete: true,
};

export const commands = [
  listVerb(TAGS, {
    description: "List a project's tags, most recently updated first",
    notes: 'A CI job token (CI_JOB_TOKEN) is accepted.',
    filters: [
      {
        flags: '--search <text>',
        key: 'search',
        help: 'only tags whose name contains the text; ^text: starts with it, text$: ends with it',
        parse: requiredTextParser('--search'),
      },
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'order by name, by the time of the tagged commit (updated), or by version number',
        choices: ['name', 'updated', 'version'],
      },
      { flags: '--sort <direction>', key: 'sort', help: 'asc or desc (the service defaults to desc)', choices: ['asc', 'desc'] },
    ],
    examples: ['svc tags list acme/platform/api --order-by version --limit 5', 'svc tags list 42 --search ^v2. -o json'],
  }),
  getVerb(TAGS, {
    description: 'Show one tag',
    examples: ['svc tags get acme/platform/api v1.0.0+build.5', 'svc tags get 42 v1.1.0 --fields name,commit.id'],
  }),
  writeVerb(TAGS, {
    name: 'create',
    description: 'Create a tag at a branch, tag or commit; with --message it is an annotated tag',
    nameKey: 'tag_name',
    done: ({ args, record }) => `created ${calledOf(TAGS, args)} at ${String((record.commit as { short_id?: string } | null)?.short_id)}`,
    examples: [
      'svc tags create acme/platform/api v1.2.0 --ref main --message "Release 1.2.0"',
      'svc tags create 42 nightly+20260101 --ref develop',
    ],
  }),
  writeVerb(TAGS, {
    name: 'delete',
    description: 'Delete a tag (a protected tag only as a maintainer); asks first unless --yes',
    examples: ['svc tags delete acme/platform/api v2.0.0-rc.1', 'svc tags delete 42 nightly+20260101 --yes'],
  }),
];
