import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'environments',
  summary: 'List, show, create, update, stop and delete environments, and stop the stale ones',
  rank: 55,
};
