import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'releases',
  summary: 'List, show, publish, update and delete releases (works with a CI job token)',
  rank: 150,
};
