import { getRecord, listRecords } from '../../api/resource.js';
import type { CommandSpec } from '../../cli/spec.js';
import { fillPath, pathArgs, type Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { PROJECT, requiredTextParser } from '../shared/args.js';
import { ARCHIVE } from './archive.js';

const TREE: Resource = {
  path: '/projects/:project/repository/tree',
  params: { project: PROJECT },
  columns: ['type', 'mode', 'path'],
};

const COMPARE: Resource = {
  path: '/projects/:project/repository/compare',
  params: { project: PROJECT },
};

interface Comparison {
  commits: Array<{ short_id: string; title: string }>;
  diffs: Array<{ new_path: string; old_path: string; new_file: boolean; deleted_file: boolean; renamed_file: boolean }>;
  compare_timeout: boolean;
}

function change(d: Comparison['diffs'][number]): { kind: string; item: string } {
  if (d.new_file) return { kind: 'added', item: d.new_path };
  if (d.deleted_file) return { kind: 'deleted', item: d.old_path };
  if (d.renamed_file) return { kind: 'renamed', item: `${d.old_path} → ${d.new_path}` };
  return { kind: 'changed', item: d.new_path };
}

/** FROM and TO are query parameters, typed as arguments, so this verb is written out rather than generated. */
const compare: CommandSpec = {
  name: 'compare',
  description: 'Compare two branches, tags or commits: the commits in TO and not in FROM, and the files changed',
  args: [
    ...pathArgs(COMPARE, COMPARE.path),
    { name: 'from', help: 'the branch, tag or commit compared from', parse: requiredTextParser('FROM') },
    { name: 'to', help: 'the branch, tag or commit compared to', parse: requiredTextParser('TO') },
  ],
  options: [{ flags: '--straight', key: 'straight', help: 'diff FROM against TO directly, not from their merge base' }],
  notes:
    'The table has one row per commit (oldest first), then one per file changed; -o json gives the ' +
    "service's whole answer (commit, commits, diffs, compare_timeout, compare_same_ref, web_url).",
  examples: ['svc repo compare acme/platform/api main feature/login', 'svc repo compare 42 v1.0.0 v1.1.0 --straight -o json'],
  async run(ctx, args, opts) {
    const http = await ctx.http();
    const path = await fillPath(ctx, COMPARE, COMPARE.path, args.slice(0, 1));
    const query = { from: args[1] as string, to: args[2] as string, ...(opts.straight ? { straight: true } : {}) };
    const result = await getRecord<Comparison>(http, path, query);
    if (result.compare_timeout) ctx.warn('the service stopped comparing early (compare_timeout): the lists may be short');
    if (ctx.globals.output !== undefined && ctx.globals.output !== 'table') {
      await ctx.printRecord(result, ctx.globals.fields ?? []);
      return;
    }
    const rows = [...result.commits.map((c) => ({ kind: 'commit', item: `${c.short_id} ${c.title}` })), ...result.diffs.map(change)];
    await ctx.printPages(
      (async function* () {
        yield rows;
      })(),
      ['kind', 'item'],
    );
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    ctx.info(`${count(result.commits.length, 'commit')}, ${count(result.diffs.length, 'file')} changed`);
  },
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
  compare,
  ARCHIVE,
];
