import { isoTimeOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { idParam, PROJECT, requiredTextParser } from '../shared/args.js';

const STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'];
const COMMENT: OptionSpec = { flags: '--comment <text>', key: 'comment', help: 'a comment that goes with your answer' };
const APPROVAL_NOTES =
  'Only a deployment waiting on a protected environment that requires approvals can be approved (premium tier). The service ' +
  'refuses, each said as it says it (exit 6): an environment that is not protected, your own deployment, approvals not ' +
  'configured, a deployment no longer waiting (already approved, or not blocked), and a user who may not deploy there.';

const DEPLOYMENTS: Resource = {
  path: '/projects/:project/deployments',
  id: 'deployment',
  params: { project: PROJECT, deployment: idParam('deployment id', 'deployment id') },
  columns: ['id', 'iid', 'environment.name', 'status', 'ref', 'sha', 'updated_at', 'user.username'],
  fields: [
    'id',
    'iid',
    'environment.name',
    'status',
    'ref',
    'sha',
    'created_at',
    'updated_at',
    'user.username',
    'deployable.id',
    'pending_approval_count',
  ],
  tokens: ['job'],
  called: (args) => `deployment ${String(args[1])} of project ${String(args[0])}`,
  roles: { list: 'reporter', get: 'reporter' },
};

function approval(name: 'approve' | 'reject', status: 'approved' | 'rejected') {
  return writeVerb(DEPLOYMENTS, {
    name,
    description: `${name === 'approve' ? 'Approve' : 'Reject'} a deployment waiting on a protected environment`,
    path: '/projects/:project/deployments/:deployment/approval',
    fixed: { status },
    body: [COMMENT],
    notes: APPROVAL_NOTES,
    fields: ['status', 'user.username', 'comment', 'created_at'],
    done: ({ args }) => `${status} ${calledOf(DEPLOYMENTS, args)}`,
    examples: [`svc deployments ${name} acme/platform/api 412${name === 'reject' ? ' --comment "not during the freeze"' : ''}`],
  });
}

export const commands = [
  listVerb(DEPLOYMENTS, {
    description: "List a project's deployments",
    filters: [
      {
        flags: '--environment <name>',
        key: 'environment',
        help: 'only deployments to this environment (by name)',
        parse: requiredTextParser('--environment'),
      },
      { flags: '--status <status>', key: 'status', help: `only deployments in this status: ${STATUSES.join(', ')}`, choices: STATUSES },
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'order by id (default), iid, created_at, updated_at, ref or finished_at',
        choices: ['id', 'iid', 'created_at', 'updated_at', 'ref', 'finished_at'],
      },
      { flags: '--sort <direction>', key: 'sort', help: 'asc (default) or desc', choices: ['asc', 'desc'] },
      {
        flags: '--updated-after <time>',
        key: 'updated_after',
        help: 'only deployments updated after this ISO 8601 time (the service then orders by updated_at)',
        parse: isoTimeOption('--updated-after'),
      },
    ],
    examples: [
      'svc deployments list acme/platform/api --environment production --status success',
      'svc deployments list 42 --updated-after 2026-01-01 --order-by updated_at -o json',
    ],
  }),
  getVerb(DEPLOYMENTS, {
    description: 'Show one deployment, with its approvals',
    fields: [...(DEPLOYMENTS.fields ?? []), 'approvals'],
    examples: ['svc deployments get acme/platform/api 412', 'svc deployments get 42 412 -o json'],
  }),
  approval('approve', 'approved'),
  approval('reject', 'rejected'),
];
