import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'tokens',
  summary: 'List, create, rotate and revoke access tokens of users, projects and groups; audit every token of the instance',
  rank: 220,
};
