import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'keys',
  summary: "List, add and delete users' SSH and GPG keys",
  rank: 108,
};
