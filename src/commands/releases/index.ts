import { listVerb } from '../generic/verbs.js';
import { CREATE } from './create.js';
import { DELETE } from './delete.js';
import { DOWNLOAD } from './download.js';
import { GET } from './get.js';
import { RELEASES } from './shared/options.js';
import { UPDATE } from './update.js';

export const commands = [
  listVerb(RELEASES, {
    description: 'List the releases of a project, the latest release date first',
    filters: [
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'order by the release date (released_at, the default) or by when the release was made (created_at)',
        choices: ['released_at', 'created_at'],
      },
      { flags: '--sort <direction>', key: 'sort', help: 'asc or desc (the service defaults to desc)', choices: ['asc', 'desc'] },
    ],
    examples: [
      'svc releases list acme/platform/api --order-by created_at --sort asc',
      'svc releases list $CI_PROJECT_ID --limit 1 --fields tag_name -o tsv',
    ],
  }),
  GET,
  CREATE,
  UPDATE,
  DELETE,
  DOWNLOAD,
];
