import { getVerb } from '../generic/verbs.js';
import { CREATE } from './create.js';
import { PIPELINES } from './shared/resource.js';
import { WAIT } from './wait.js';

export const commands = [
  CREATE,
  getVerb(PIPELINES, {
    description: 'Show one pipeline',
    examples: ['svc pipeline get acme/platform/api 1042', 'svc pipeline get 42 1042 --fields status,web_url'],
  }),
  WAIT,
];
