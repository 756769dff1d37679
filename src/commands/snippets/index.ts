import { CREATE } from './create.js';

export const commands = [CREATE];
