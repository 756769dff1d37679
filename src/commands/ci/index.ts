import { LINT } from './lint.js';

export const commands = [LINT];
