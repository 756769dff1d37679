import { listVerb } from '../generic/verbs.js';
import { CANCEL, RETRY } from './actions.js';
import { CREATE } from './create.js';
import { DELETE } from './delete.js';
import { GET } from './get.js';
import { LIST } from './list.js';
import { PIPELINES } from './shared/resource.js';
import { TRIGGER } from './trigger.js';
import { VARIABLES } from './variables.js';
import { WAIT } from './wait.js';

export const commands = [listVerb(PIPELINES, LIST), CREATE, GET, CANCEL, RETRY, DELETE, WAIT, TRIGGER, listVerb(PIPELINES, VARIABLES)];
