import { listRecords } from '../../api/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { listLimit } from '../shared/list.js';
import { DELETE } from './delete.js';
import { GROUPS } from './shared/resource.js';
import { CREATE, TRANSFER, UPDATE } from './write.js';

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
  getVerb(GROUPS, { description: 'Show one group', examples: ['svc groups get acme/platform', 'svc groups get 5 -o json'] }),
  listVerb(GROUPS, {
    name: 'subgroups',
    path: '/groups/:group/subgroups',
    description: "List a group's subgroups (every level below it with --all-descendants)",
    alternatives: [
      { flags: '--all-descendants', path: '/groups/:group/descendant_groups', help: 'subgroups at every depth, not only children' },
    ],
    filters: [{ flags: '--search <text>', key: 'search', help: 'only subgroups whose name or path contains the text' }],
    examples: ['svc groups subgroups acme', 'svc groups subgroups acme --all-descendants -o ndjson --fields id,full_path'],
  }),
  listVerb(GROUPS, {
    name: 'projects',
    path: '/groups/:group/projects',
    description: "List a group's projects and those shared with it, newest first (its subgroups' too with --include-subgroups)",
    columns: ['id', 'path_with_namespace', 'visibility', 'archived', 'last_activity_at'],
    filters: [
      { flags: '--include-subgroups', key: 'include_subgroups', help: 'also the projects of every subgroup' },
      { flags: '--archived', key: 'archived', help: 'only archived projects' },
      { flags: '--no-archived', key: 'archived', help: 'only projects that are not archived' },
      { flags: '--no-shared', key: 'with_shared', help: 'leave out the projects of other groups shared with this one' },
    ],
    examples: ['svc groups projects acme --include-subgroups --no-shared', 'svc groups projects acme/platform --archived -o json'],
  }),
  CREATE,
  UPDATE,
  TRANSFER,
  DELETE,
];
