import { isoTimeOption } from '../../cli/parsers.js';
import type { ListVerb } from '../generic/verbs.js';
import { requiredTextParser } from '../shared/args.js';
import { PIPELINE_SOURCES } from './shared/resource.js';
import { PIPELINE_STATUSES } from '../shared/service-enums.js';

export const LIST: ListVerb = {
  description: "List a project's pipelines, newest first, filtered as the service filters them",
  filters: [
    { flags: '--status <status>', key: 'status', help: 'only pipelines in this status', choices: PIPELINE_STATUSES },
    {
      flags: '--scope <scope>',
      key: 'scope',
      help: 'running, pending, finished, or the latest pipeline of each branch or tag',
      choices: ['running', 'pending', 'finished', 'branches', 'tags'],
    },
    { flags: '--ref <ref>', key: 'ref', help: 'only pipelines of this branch or tag', parse: requiredTextParser('--ref') },
    { flags: '--sha <sha>', key: 'sha', help: 'only pipelines of this commit', parse: requiredTextParser('--sha') },
    { flags: '--source <source>', key: 'source', help: 'only pipelines started this way', choices: PIPELINE_SOURCES },
    { flags: '--username <user>', key: 'username', help: 'only pipelines run by this user', parse: requiredTextParser('--username') },
    {
      flags: '--name <name>',
      key: 'name',
      help: 'only pipelines of this name (workflow:name or set later), matched exactly',
      parse: requiredTextParser('--name'),
    },
    {
      flags: '--updated-after <time>',
      key: 'updated_after',
      help: 'only pipelines updated at or after this ISO 8601 time',
      parse: isoTimeOption('--updated-after'),
    },
    {
      flags: '--updated-before <time>',
      key: 'updated_before',
      help: 'only pipelines updated at or before this ISO 8601 time',
      parse: isoTimeOption('--updated-before'),
    },
    {
      flags: '--order-by <field>',
      key: 'order_by',
      help: 'order (service default: id)',
      choices: ['id', 'status', 'ref', 'updated_at', 'user_id'],
    },
    { flags: '--sort <direction>', key: 'sort', help: 'direction (service default: desc)', choices: ['asc', 'desc'] },
  ],
  examples: [
    'svc pipeline list acme/platform/api --status failed --ref main --limit 5',
    'svc pipeline list 42 --scope branches -o json --fields id,ref,status,web_url',
  ],
};
