import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'groups',
  summary: 'List, show, create, update, transfer and delete groups; list their subgroups and projects',
  rank: 170,
};
