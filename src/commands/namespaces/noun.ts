import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'namespaces',
  summary: 'List the user and group namespaces you can create projects in',
  rank: 160,
};
