import type { ListVerb } from '../generic/verbs.js';
import { listProjects } from '../../api/projects.js';
import type { Project } from '../../api/types.js';
import { ExitCode, SvcError } from '../../errors.js';
import { listLimit } from '../shared/list.js';
import { VISIBILITIES } from './shared/resource.js';

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
  ],
  examples: [
    'svc projects list --all -o ndjson',
    'svc projects list --storage default --fields id,path_with_namespace',
    'svc projects list --search api --visibility private --order-by last_activity_at --sort desc',
  ],
  // Deep listings go by keyset on id: constant cost per page and no maximum offset.
  pages: (http, _path, query, opts) => listProjects(http, query, listLimit(opts) > 100 && (query.order_by ?? 'id') === 'id'),
  check: (first, opts) => {
    if (opts.storage !== undefined && first && !('repository_storage' in (first as object))) {
      // The service ignores the filter for non-administrators and would list every project.
      throw new SvcError(`--storage ${String(opts.storage)}: filtering by storage needs an administrator's token`, ExitCode.forbidden);
    }
  },
  columns: (first, opts) => columnsFor(first as Project | undefined, opts.storage as string | undefined),
};

/**
 * The service shows `repository_storage` to administrators only, so the column appears when the
 * records carry it (the first one decides) or when the listing filters by storage.
 */
export function columnsFor(firstRecord: Project | undefined, storage: string | undefined): string[] {
  const withStorage = storage !== undefined || (firstRecord !== undefined && 'repository_storage' in firstRecord);
  return ['id', 'path_with_namespace', 'visibility', ...(withStorage ? ['repository_storage'] : []), 'last_activity_at'];
}
