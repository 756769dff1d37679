import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'deploy-keys',
  summary: "List, add, enable, update and delete a project's deploy keys, or the instance's",
  rank: 106,
};
