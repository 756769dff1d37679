import { intOption, isoTimeOption } from '../../cli/parsers.js';
import type { Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { nameParam, PROJECT, requiredTextParser } from '../shared/args.js';
import { CREATE } from './create.js';
import { answerText } from '../shared/answer-text.js';

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

const STATE_CHOICES = ['pending', 'running', 'success', 'failed', 'canceled'];
const SHA = nameParam('commit', 'the full commit SHA (the service reads statuses by the SHA as given)');

/** A commit's statuses: what CI and other tools report on it, one per name and ref. */
const STATUSES: Resource = {
  path: '/projects/:project/repository/commits/:sha/statuses',
  params: {
    project: PROJECT,
    sha: SHA,
    commit: nameParam('commit', 'the commit: its SHA (a short one of 7 or more characters works too), or a branch or tag name'),
  },
  columns: ['id', 'name', 'status', 'ref', 'description', 'target_url', 'created_at'],
  fields: ['id', 'sha', 'ref', 'status', 'name', 'description', 'target_url', 'pipeline_id', 'created_at', 'started_at', 'finished_at'],
  roles: { status: 'developer' },
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
  CREATE,
  writeVerb(STATUSES, {
    name: 'status',
    path: '/projects/:project/statuses/:commit',
    description: "Set a commit's status of one name: a new one, or the pending or running one of that name moved on",
    body: [
      { flags: '--state <state>', key: 'state', help: 'the state to set', required: true, choices: STATE_CHOICES },
      text('--name <name>', 'name', 'what reports the status, e.g. lint (the service says default when not given)'),
      text('--target-url <url>', 'target_url', 'where the details are'),
      { flags: '--description <text>', key: 'description', help: 'a short line about the status' },
      text('--ref <ref>', 'ref', 'the branch or tag the status is for (default: a branch holding the commit)'),
      {
        flags: '--pipeline-id <id>',
        key: 'pipeline_id',
        help: 'the pipeline to attach the status to',
        parse: intOption('--pipeline-id', 1),
      },
    ],
    notes:
      'A status of the same name and ref moves pending → running → success, failed or canceled; a move the service ' +
      'has no way for (running twice, or back to pending) is refused. Once finished, the name starts a new status.',
    done: ({ args, params, record }) => {
      const sha = answerText(record.sha)?.slice(0, 8) ?? String(args[1]);
      return `${answerText(record.name) ?? String(params.name ?? 'default')} on ${sha} is ${answerText(record.status) ?? String(params.state)}`;
    },
    examples: [
      'svc commits status acme/platform/api 5f3a9c1e --state running --name lint --target-url https://ci.example.com/7',
      'svc commits status 42 5f3a9c1e --state success --name lint --description "no findings"',
    ],
  }),
  listVerb(STATUSES, {
    name: 'statuses',
    description: "List a commit's statuses (the newest of each name unless --all-statuses)",
    filters: [
      text('--ref <ref>', 'ref', 'only statuses for this branch or tag'),
      text('--stage <stage>', 'stage', 'only statuses of this stage (statuses set with `commits status` are in stage external)'),
      text('--name <name>', 'name', 'only statuses of this name'),
      { flags: '--all-statuses', key: 'all', help: 'every status, not only the newest of each name' },
    ],
    examples: ['svc commits statuses acme/platform/api 5f3a9c1e', 'svc commits statuses 42 5f3a9c1e --name lint --all-statuses -o json'],
  }),
];
