import { intOption, listOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';
import { type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { groupId, idParam, PROJECT, requiredTextParser } from '../shared/args.js';
import { existingUserIds, namesColumn } from '../shared/users.js';

const WHO: OptionSpec[] = [
  {
    flags: '--users <users>',
    key: 'user_ids',
    help: 'who may approve: usernames or ids, comma-separated, each looked up (replaces the list)',
    parse: listOption('--users'),
    // The service drops ids and usernames that match no user without a word, so each is checked first.
    resolve: async (http, value) => existingUserIds(http, value as string[]),
  },
  {
    flags: '--groups <groups>',
    key: 'group_ids',
    help: 'whose developers and up may approve: group paths or ids, comma-separated (replaces the list)',
    parse: listOption('--groups'),
    resolve: async (http, value) => Promise.all((value as string[]).map((group) => groupId(http, group))),
  },
  {
    flags: '--protected-branch-ids <ids>',
    key: 'protected_branch_ids',
    help: 'apply only to merge requests into these protected branches (their ids: svc protected-branches list -o json)',
    parse: listOption('--protected-branch-ids'),
  },
];

/** A project's approval rules (a premium feature of the service). */
const APPROVAL_RULES: Resource = {
  path: '/projects/:project/approval_rules',
  id: 'rule',
  params: { project: PROJECT, rule: idParam('rule id', 'the approval rule id (what list prints first)') },
  columns: ['id', 'name', 'approvals_required', namesColumn('users'), namesColumn('groups'), namesColumn('protected_branches')],
  fields: ['id', 'name', 'rule_type', 'approvals_required', 'applies_to_all_protected_branches'],
  called: (args) => `approval rule ${String(args[1])} of project ${String(args[0])}`,
  create: [
    { flags: '--name <name>', key: 'name', help: 'the rule name', required: true, parse: requiredTextParser('--name') },
    {
      flags: '--approvals-required <n>',
      key: 'approvals_required',
      help: 'how many approvals the rule needs',
      required: true,
      parse: intOption('--approvals-required', 0),
    },
    ...WHO,
  ],
  update: {
    fields: [
      { flags: '--name <name>', key: 'name', help: 'a new name', parse: requiredTextParser('--name') },
      {
        flags: '--approvals-required <n>',
        key: 'approvals_required',
        help: 'how many approvals the rule needs',
        parse: intOption('--approvals-required', 0),
      },
      ...WHO,
    ],
    atLeastOne: true,
  },
  roles: { list: 'developer', get: 'developer', create: 'maintainer', update: 'maintainer', delete: 'maintainer' },
  confirmDelete: true,
};

export const commands = [
  listVerb(APPROVAL_RULES, {
    description: "List a project's approval rules: who may approve, how many approvals each needs, on which branches",
    examples: ['svc approval-rules list acme/platform/api', 'svc approval-rules list 42 -o json'],
  }),
  getVerb(APPROVAL_RULES, {
    description: 'Show one approval rule',
    examples: ['svc approval-rules get acme/platform/api 7 -o json'],
  }),
  writeVerb(APPROVAL_RULES, {
    name: 'create',
    description: 'Add an approval rule: its name, the approvals it needs, who may approve and on which protected branches',
    done: ({ record }) => `created approval rule ${String(record.id)} (${String(record.name)})`,
    examples: [
      'svc approval-rules create acme/platform/api --name security --approvals-required 2 --users ann,bob --groups acme/security',
      'svc approval-rules create acme/platform/api --name release --approvals-required 1 --protected-branch-ids 12',
    ],
  }),
  writeVerb(APPROVAL_RULES, {
    name: 'update',
    description: 'Change an approval rule (a list given replaces the one the rule had)',
    examples: ['svc approval-rules update acme/platform/api 7 --approvals-required 1', 'svc approval-rules update 42 7 --users ann'],
  }),
  writeVerb(APPROVAL_RULES, {
    name: 'delete',
    description: 'Delete an approval rule; asks first unless --yes',
    examples: ['svc approval-rules delete acme/platform/api 7 --yes'],
  }),
];
