import { DELETE } from './delete.js';
import { EXPORT } from './export.js';
import { GET } from './get.js';
import { LIST } from './list.js';
import { SET } from './set.js';
import { SYNC } from './sync.js';

export const commands = [LIST, GET, SET, DELETE, EXPORT, SYNC];
