import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'instance',
  summary: 'Show the statistics of the instance (counts of users, projects, issues and more)',
  rank: 216,
};
