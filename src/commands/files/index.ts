import { GET } from './get.js';

export const commands = [GET];
