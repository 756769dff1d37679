import { branchCommitPages } from '../../api/repository.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { nameParam, PROJECT, requiredTextParser } from '../shared/args.js';

const BRANCHES: Resource = {
  path: '/projects/:project/repository/branches',
  id: 'branch',
  params: { project: PROJECT, branch: nameParam('branch', 'branch name, e.g. feature/login (typed as is; svc encodes it)') },
  columns: ['name', 'default', 'protected', 'commit.short_id', 'commit.committed_date'],
  fields: ['name', 'default', 'protected', 'merged', 'can_push', 'commit.id', 'commit.title', 'web_url'],
  called: (args) => `branch ${String(args[1])} of project ${String(args[0])}`,
  create: [
    {
      flags: '--ref <ref>',
      key: 'ref',
      help: 'the branch, tag or commit SHA the new branch starts at',
      required: true,
      parse: requiredTextParser('--ref'),
    },
  ],
  roles: { create: 'developer', delete: 'developer' },
  confirmDelete: true,
};

export const commands = [
  listVerb(BRANCHES, {
    description: "List a project's branches by name",
    notes: 'A CI job token (CI_JOB_TOKEN) is accepted.',
    filters: [
      {
        flags: '--search <text>',
        key: 'search',
        help: 'only branches whose name contains the text; ^text: starts with it, text$: ends with it',
        parse: requiredTextParser('--search'),
      },
      { flags: '--regex <pattern>', key: 'regex', help: 'only branches whose name matches this RE2 regular expression' },
      {
        flags: '--sort <order>',
        key: 'sort',
        help: 'name_asc (the default), or by the time of the head commit: updated_asc or updated_desc',
        choices: ['name_asc', 'updated_asc', 'updated_desc'],
      },
    ],
    examples: ['svc branches list acme/platform/api --search ^feature/', 'svc branches list 42 --regex "^release/[0-9]+" -o json'],
  }),
  getVerb(BRANCHES, {
    description: 'Show one branch: its head commit, whether it is protected or the default',
    examples: ['svc branches get acme/platform/api feature/login', 'svc branches get 42 main --fields name,commit.id'],
  }),
  writeVerb(BRANCHES, {
    name: 'create',
    description: 'Create a branch from a branch, tag or commit',
    nameKey: 'branch',
    done: ({ args, record }) =>
      `created ${calledOf(BRANCHES, args)} at ${String((record.commit as { short_id?: string } | null)?.short_id)}`,
    examples: ['svc branches create acme/platform/api feature/search-v3 --ref main', 'svc branches create 42 hotfix/1.0.1 --ref v1.0.0'],
  }),
  writeVerb(BRANCHES, {
    name: 'delete',
    description: 'Delete a branch (not the default branch, nor a protected one); asks first unless --yes',
    examples: ['svc branches delete acme/platform/api feature/search-v2', 'svc branches delete 42 fix/issue-1 --yes'],
  }),
  listVerb(BRANCHES, {
    name: 'commits',
    path: '/projects/:project/branches/:branch/commits',
    description: 'List the commits of a branch, newest first',
    columns: ['short_id', 'created_at', 'author_name', 'title'],
    notes: 'Instances without the branch commits route are asked for /repository/commits?ref_name=BRANCH instead.',
    // The filled path is /projects/<project>/branches/<branch>/commits, each name encoded once.
    pages: (http, path, query) => {
      const [project, branch] = [path.split('/')[2], path.split('/')[4]].map((segment) => decodeURIComponent(segment ?? ''));
      return branchCommitPages(http, project as string, branch as string, query);
    },
    examples: ['svc branches commits acme/platform/api feature/search-v2 --limit 10', 'svc branches commits 42 main --all -o ndjson'],
  }),
];
