import { GET } from './get.js';
import { LIST } from './list.js';
import { SCHEDULE } from './schedule.js';
import { VERIFY } from './verify.js';
import { WAIT } from './wait.js';
import { WEIGHTS } from './weights.js';

export const commands = [WEIGHTS, SCHEDULE, WAIT, VERIFY, LIST, GET];
