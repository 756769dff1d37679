import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'deployments',
  summary: 'List and show deployments, approve or reject one waiting on a protected environment',
  rank: 56,
};
