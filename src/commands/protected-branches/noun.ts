import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'protected-branches',
  summary: 'List, protect, update and unprotect branches and wildcards (release/*)',
  rank: 90,
};
