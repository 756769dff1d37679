import { isoTimeOption } from '../../cli/parsers.js';
import type { Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { nameParam, PROJECT, requiredTextParser } from '../shared/args.js';

const COMMITS: Resource = {
  path: '/projects/:project/repository/commits',
  id: 'sha',
  params: {
    project: PROJECT,
    sha: nameParam('commit', 'commit SHA (a short SHA of 7 or more characters works too), or a branch or tag name'),
  },
  columns: ['short_id', 'created_at', 'author_name', 'title'],
  fields: [
    'id',
    'short_id',
    'title',
    'author_name',
    'author_email',
    'authored_date',
    'parent_ids',
    'stats.additions',
    'stats.deletions',
    'web_url',
  ],
};

/** An option whose value is sent as typed, never empty. */
const text = (flags: string, key: string, help: string) => ({ flags, key, help, parse: requiredTextParser(flags.split(' ')[0]!) });

export const commands = [
  listVerb(COMMITS, {
    description: "List a repository's commits, newest first (the default branch unless --ref says otherwise)",
    filters: [
      text('--ref <ref>', 'ref_name', 'the branch, tag or commit whose history is listed'),
      text('--path <path>', 'path', 'only commits that changed this file or directory'),
      { flags: '--since <time>', key: 'since', help: 'only commits made at or after this ISO 8601 time', parse: isoTimeOption('--since') },
      { flags: '--until <time>', key: 'until', help: 'only commits made at or before this ISO 8601 time', parse: isoTimeOption('--until') },
      text('--author <name>', 'author', "only commits whose author's name or email contains this"),
      { flags: '--all-refs', key: 'all', help: 'commits of every branch, not only one ref (--ref is then ignored by the service)' },
      { flags: '--with-stats', key: 'with_stats', help: 'add the lines each commit added and deleted (stats.additions, stats.deletions)' },
    ],
    notes: 'The service never counts this list, so --all walks pages until a page comes back short or empty.',
    examples: [
      'svc commits list acme/platform/api --ref feature/login --limit 20',
      'svc commits list 42 --path docs/ --since 2026-01-01T00:00:00Z --author jdoe -o ndjson',
    ],
  }),
  getVerb(COMMITS, {
    description: 'Show one commit, with its lines added and deleted',
    notes: 'A CI job token (CI_JOB_TOKEN) is accepted.',
    examples: ['svc commits get acme/platform/api 5f3a9c1', 'svc commits get 42 main --fields id,title,stats.additions'],
  }),
];
