import { listRecords } from '../../api/resource.js';
import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { listLimit } from '../shared/list.js';

const GROUPS: Resource = { path: '/groups', params: {}, columns: ['id', 'full_path', 'name', 'visibility'] };

export const commands = [
  listVerb(GROUPS, {
    description: 'List groups by name (keyset paging for long anonymous listings, as the service allows)',
    filters: [{ flags: '--search <text>', key: 'search', help: 'only groups whose name or path contains the text' }],
    // The service offers keyset paging on groups (by name) to anonymous requests only; with a
    // token the listing pages by offset, in the same order.
    pages: (http, path, query, opts) =>
      listRecords(
        http,
        path,
        http.tokenType === undefined && listLimit(opts) > 100 ? { ...query, pagination: 'keyset', order_by: 'name', sort: 'asc' } : query,
      ),
    examples: ['svc groups list --search platform', 'svc groups list --all -o ndjson --fields id,full_path'],
  }),
];
