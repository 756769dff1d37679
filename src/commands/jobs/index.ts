import { getVerb, listVerb } from '../generic/verbs.js';
import { CANCEL, PLAY, RETRY } from './actions.js';
import { ARTIFACTS } from './artifacts.js';
import { LIST } from './list.js';
import { LOG } from './log.js';
import { JOBS } from './shared/resource.js';

export const commands = [
  listVerb(JOBS, LIST),
  getVerb(JOBS, {
    description: 'Show one job: its status, stage, pipeline and, when it failed, the reason',
    examples: ['svc jobs get acme/platform/api 1234', 'svc jobs get 42 1234 --fields status,failure_reason'],
  }),
  LOG,
  RETRY,
  CANCEL,
  PLAY,
  ARTIFACTS,
];
