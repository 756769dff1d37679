import { listRecords } from '../../api/resource.js';
import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { PROJECT, requiredTextParser } from '../shared/args.js';

const TREE: Resource = {
  path: '/projects/:project/repository/tree',
  params: { project: PROJECT },
  columns: ['type', 'mode', 'path'],
};

export const commands = [
  listVerb(TREE, {
    name: 'tree',
    description: 'List the directories (tree) and files (blob) of a repository directory, directories first',
    filters: [
      {
        flags: '--ref <ref>',
        key: 'ref',
        help: 'the branch, tag or commit to read (default: the default branch)',
        parse: requiredTextParser('--ref'),
      },
      {
        flags: '--path <dir>',
        key: 'path',
        help: 'the directory to list (default: the top of the repository)',
        parse: requiredTextParser('--path'),
      },
      { flags: '--recursive', key: 'recursive', help: 'list every level below the directory, not only its own entries' },
    ],
    notes: 'Pages are keyset pages, as the service recommends for trees. A directory that does not exist lists nothing.',
    noun: 'tree entries',
    pages: (http, path, query) => listRecords(http, path, { ...query, pagination: 'keyset' }),
    examples: ['svc repo tree acme/platform/api --path docs --recursive', 'svc repo tree 42 --ref v1.0.0 -o json --fields path,id'],
  }),
];
