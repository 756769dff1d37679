import { listVerb } from '../generic/verbs.js';
import { CREATE } from './create.js';
import { DELETE } from './delete.js';
import { GET } from './get.js';
import { RELEASES } from './shared/options.js';
import { UPDATE } from './update.js';

export const commands = [
  listVerb(RELEASES, {
    description: 'List the releases of a project, newest first',
    examples: ['svc releases list acme/platform/api', 'svc releases list $CI_PROJECT_ID --limit 1 --fields tag_name -o tsv'],
  }),
  GET,
  CREATE,
  UPDATE,
  DELETE,
];
