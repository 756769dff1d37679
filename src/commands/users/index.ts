import { listRecords } from '../../api/resource.js';
import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { CREATE, STATE_VERBS, UPDATE } from './admin.js';
import { OFFBOARD } from './offboard.js';
import { GET, ME, PROJECTS } from './read.js';
import { DELETE, LIST_MEMBERSHIPS } from './removal.js';

const USERS: Resource = { path: '/users', params: {}, columns: ['id', 'username', 'name', 'state'] };

export const commands = [
  listVerb(USERS, {
    description: 'List users, by keyset paging (offset paging on users is deprecated and capped)',
    filters: [
      { flags: '--search <text>', key: 'search', help: 'only users whose name or username contains the text (offset paging: few results)' },
      { flags: '--username <name>', key: 'username', help: 'only the user with this username (offset paging)' },
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'keyset order',
        choices: ['id', 'name', 'username', 'created_at', 'updated_at'],
        default: 'id',
      },
      { flags: '--sort <direction>', key: 'sort', help: 'sort direction', choices: ['asc', 'desc'], default: 'asc' },
    ],
    // A filtered listing is short and the service does not page it by keyset.
    pages: (http, path, query) =>
      listRecords(http, path, query.search === undefined && query.username === undefined ? { ...query, pagination: 'keyset' } : query),
    examples: ['svc users list --all -o ndjson', 'svc users list --search jdoe --fields id,username,state'],
  }),
  GET,
  ME,
  PROJECTS,
  CREATE,
  UPDATE,
  ...STATE_VERBS,
  DELETE,
  LIST_MEMBERSHIPS,
  OFFBOARD,
];
