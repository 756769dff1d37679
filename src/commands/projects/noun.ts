import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'projects',
  summary: 'List, show, create, import, update, archive, share, fork, transfer, delete and restore projects',
  rank: 10,
};
