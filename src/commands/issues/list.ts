import { InvalidArgumentError } from 'commander';
import { listOption, isoTimeOption } from '../../cli/parsers.js';
import { listVerb } from '../generic/verbs.js';
import { requiredTextParser } from '../shared/args.js';
import { userParams } from '../shared/users.js';
import { ISSUES } from './shared/resource.js';

const ORDERS = [
  'created_at',
  'updated_at',
  'priority',
  'due_date',
  'relative_position',
  'label_priority',
  'milestone_due',
  'popularity',
  'title',
];

function iidList(value: string): string[] {
  const iids = listOption('--iids')(value).map((v) => v.replace(/^#/, ''));
  const bad = iids.find((v) => !/^\d+$/.test(v) || /^0+$/.test(v));
  if (bad !== undefined) throw new InvalidArgumentError(`--iids takes issue numbers such as 1,2,#3; '${bad}' is not one`);
  return iids;
}

const time = (flag: string, key: string, help: string) => ({ flags: `${flag} <time>`, key, help, parse: isoTimeOption(flag) });

export const LIST = listVerb(ISSUES, {
  description: "List a project's issues, a group's (subgroups included) or every issue you can see on the instance",
  filters: [
    { flags: '--state <state>', key: 'state', help: 'opened, closed or all (service default: all)', choices: ['opened', 'closed', 'all'] },
    {
      flags: '--labels <labels>',
      key: 'labels',
      help: 'only issues with every one of these labels (comma-separated; None, Any)',
      parse: requiredTextParser('--labels'),
    },
    { flags: '--milestone <title>', key: 'milestone', help: 'milestone title, None or Any', parse: requiredTextParser('--milestone') },
    { flags: '--author <user>', help: 'author: username or numeric user id', parse: requiredTextParser('--author') },
    { flags: '--assignee <user>', help: 'assignee: username, numeric user id, None or Any', parse: requiredTextParser('--assignee') },
    { flags: '--search <text>', key: 'search', help: 'text in the title or description', parse: requiredTextParser('--search') },
    { flags: '--iids <iids>', key: 'iids', help: 'only these issue numbers (comma-separated)', parse: iidList },
    time('--created-after', 'created_after', 'created at or after this ISO 8601 time'),
    time('--created-before', 'created_before', 'created at or before this ISO 8601 time'),
    time('--updated-after', 'updated_after', 'updated at or after this ISO 8601 time'),
    time('--updated-before', 'updated_before', 'updated at or before this ISO 8601 time'),
    { flags: '--order-by <field>', key: 'order_by', help: 'sort field (service default: created_at)', choices: ORDERS },
    { flags: '--sort <direction>', key: 'sort', help: 'asc or desc (service default: desc)', choices: ['asc', 'desc'] },
    { flags: '--confidential', key: 'confidential', help: 'only confidential issues' },
    {
      flags: '--scope <scope>',
      key: 'scope',
      help: 'created_by_me, assigned_to_me or all (default: all; the service alone defaults --instance to created_by_me)',
      choices: ['created_by_me', 'assigned_to_me', 'all'],
    },
  ],
  params: (opts) => userParams(opts),
  ownerQuery: { instance: { scope: 'all' } },
  columns: (_first, _opts, owner) =>
    owner === 'project'
      ? ['iid', 'title', 'state', 'author.username', 'labels', 'created_at']
      : ['references.full', 'title', 'state', 'author.username', 'labels', 'created_at'],
  examples: [
    'svc issues list acme/platform/api --state opened --labels bug,backend',
    'svc issues list --group acme --assignee jdoe --updated-after 2026-01-01T00:00:00Z -o ndjson',
    'svc issues list --instance --state opened --all -o json',
  ],
});
