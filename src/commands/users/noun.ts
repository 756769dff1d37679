import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'users',
  summary: 'List, show, create, update and delete users, block, deactivate or ban them, list their projects and memberships, offboard them',
  rank: 210,
};
