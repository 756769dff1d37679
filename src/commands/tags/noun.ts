import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'tags',
  summary: 'List, show, create and delete repository tags (names with / and + work as typed)',
  rank: 80,
};
