import type { Context } from '../../context.js';
import type { ListVerb } from '../generic/verbs.js';
import { listProjects } from '../../api/projects.js';
import type { Project } from '../../api/types.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import type { ApiError } from '../../http/api-error.js';
import { isMaxOffsetError, type HttpClient, type Page } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import { intOption, shardOption } from '../../cli/parsers.js';
import { parallelIdPages } from '../../workflows/parallel-list/ranges.js';
import { inShard, resolveShard, type Shard, type ShardSpec } from '../../workflows/shared/shard.js';
import { listLimit, type ListFlags } from '../shared/list.js';
import { VISIBILITIES } from '../shared/service-enums.js';

/** The orders the service accepts for projects. */
export const PROJECT_ORDER = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count'];

export const LIST: ListVerb = {
  description: 'List projects (every page with --all)',
  filters: [
    { flags: '--storage <name>', key: 'repository_storage', help: 'only projects whose repository is on this storage (admin)' },
    { flags: '--search <text>', key: 'search', help: 'only projects matching the text' },
    { flags: '--visibility <level>', key: 'visibility', help: 'only projects of this visibility', choices: VISIBILITIES },
    { flags: '--order-by <field>', key: 'order_by', help: 'order by this field', choices: PROJECT_ORDER },
    { flags: '--sort <direction>', key: 'sort', help: 'sort direction', choices: ['asc', 'desc'] },
    {
      flags: '--parallel <n>',
      help: 'with --all, walk N id ranges at once (same records, same order; fewer when rate limited)',
      parse: intOption('--parallel', 1, 32),
    },
    {
      flags: '--shard <K/N|ci>',
      help: 'only the projects of shard K of N (ci: CI_NODE_INDEX of CI_NODE_TOTAL); each project is in exactly one shard',
      parse: shardOption,
    },
  ],
  examples: [
    'svc projects list --all -o ndjson',
    'svc projects list --storage default --fields id,path_with_namespace',
    'svc projects list --search api --visibility private --order-by last_activity_at --sort desc',
    'svc projects list --all --parallel 8 -o ndjson',
    'svc projects list --all --shard ci -o ndjson | svc bulk -- projects archive {id}',
  ],
  pages: projectPages,
  check: (first, opts) => {
    if (opts.storage !== undefined && isRecord(first) && !('repository_storage' in first)) {
      // The service ignores the filter for non-administrators and would list every project.
      throw new SvcError(`--storage ${String(opts.storage)}: filtering by storage needs an administrator's token`, ExitCode.forbidden);
    }
  },
  columns: (first, opts) => columnsFor(first as Project | undefined, opts.storage as string | undefined),
};

/** Deep listings go by keyset on id (constant cost per page, no maximum offset), in parallel with --parallel. */
function projectPages(http: HttpClient, path: string, query: QueryParams, opts: Record<string, unknown> & ListFlags, ctx: Context) {
  const spec = opts.shard as ShardSpec | undefined;
  const pages = everyProjectPage(http, path, query, opts, ctx);
  return spec === undefined ? pages : shardPages(pages, resolveShard(spec, ctx.env));
}

function everyProjectPage(http: HttpClient, _path: string, query: QueryParams, opts: Record<string, unknown> & ListFlags, ctx: Context) {
  const byId = (query.order_by ?? 'id') === 'id';
  const workers = (opts.parallel as number | undefined) ?? 1;
  if (workers > 1) {
    if (!opts.all) throw new UsageError('--parallel needs --all (it splits the whole listing into id ranges)');
    if (!byId) throw new UsageError('--parallel lists in id order only; drop --order-by or give --order-by id');
    const sort = query.sort === 'asc' ? 'asc' : 'desc';
    const sequential = () => listProjects(http, query, true);
    return parallelIdPages({ http, path: '/projects', query, workers, sort, sequential, note: (line) => ctx.info(line) });
  }
  const pages = listProjects(http, query, listLimit(opts) > 100 && byId);
  return byId ? pages : offsetLimitExplained(pages);
}

/** Each page keeps the projects of one shard, by id (see `inShard`): every shard reads every page. */
async function* shardPages(pages: AsyncIterable<Page<Project>>, shard: Shard): AsyncGenerator<Page<Project>> {
  for await (const page of pages) yield { ...page, items: page.items.filter((project) => inShard(String(project.id), shard)) };
}

/** Past the maximum offset only keyset paging goes on, and the service pages projects by keyset in id order only. */
async function* offsetLimitExplained(pages: AsyncGenerator<Page<Project>>): AsyncGenerator<Page<Project>> {
  try {
    yield* pages;
  } catch (error) {
    if (!isMaxOffsetError(error)) throw error;
    const { body, exitCode } = error as ApiError;
    const limit = /maximum allowed offset of (\d+)/i.exec((body as { error: string }).error)?.[1];
    const where = limit === undefined ? 'its maximum offset' : `${Number(limit).toLocaleString('en-US')} records`;
    throw new SvcError(`the service stops offset paging at ${where}; --order-by id (keyset paging) lists them all`, exitCode);
  }
}

/**
 * The service shows `repository_storage` to administrators only, so the column appears when the
 * records carry it (the first one decides) or when the listing filters by storage.
 */
export function columnsFor(firstRecord: Project | undefined, storage: string | undefined): string[] {
  const withStorage = storage !== undefined || (isRecord(firstRecord) && 'repository_storage' in firstRecord);
  return ['id', 'path_with_namespace', 'visibility', ...(withStorage ? ['repository_storage'] : []), 'last_activity_at'];
}

/** A server may answer anything in a list; only an object can carry a field. */
function isRecord(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
