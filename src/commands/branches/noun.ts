import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'branches',
  summary: 'List, show, create and delete branches, and list their commits (names with / and + work as typed)',
  rank: 70,
};
