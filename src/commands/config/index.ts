import { GET } from './get.js';
import { LIST } from './list.js';
import { PATH } from './path.js';
import { SET } from './set.js';
import { UNSET } from './unset.js';

export const examples = ['svc config list', 'svc config set url https://gitlab.example.com --profile work'];

export const commands = [GET, SET, UNSET, LIST, PATH];
