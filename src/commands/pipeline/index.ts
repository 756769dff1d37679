import { actionVerb, listVerb } from '../generic/verbs.js';
import { CANCEL, RETRY } from './actions.js';
import { CREATE } from './create.js';
import { GET } from './get.js';
import { LIST } from './list.js';
import { PIPELINES } from './shared/resource.js';
import { TRIGGER } from './trigger.js';
import { VARIABLES } from './variables.js';
import { WAIT } from './wait.js';

export const commands = [
  listVerb(PIPELINES, LIST),
  CREATE,
  GET,
  CANCEL,
  RETRY,
  actionVerb(PIPELINES, {
    name: 'delete',
    method: 'DELETE',
    description: 'Delete a pipeline with its jobs and logs (project owners only; prints nothing on stdout)',
    done: ([, id]) => `deleted pipeline ${String(id)}`,
    scheduled: ([, id]) => `deleting pipeline ${String(id)} was accepted`,
    examples: ['svc pipeline delete acme/platform/api 1042'],
  }),
  WAIT,
  TRIGGER,
  listVerb(PIPELINES, VARIABLES),
];
