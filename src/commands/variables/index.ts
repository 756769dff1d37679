import { DELETE } from './delete.js';
import { GET } from './get.js';
import { LIST } from './list.js';
import { SET } from './set.js';

export const commands = [LIST, GET, SET, DELETE];
