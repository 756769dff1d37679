import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'users',
  summary: 'List, show, create and update users, block, deactivate or ban them, and list their projects',
  rank: 210,
};
