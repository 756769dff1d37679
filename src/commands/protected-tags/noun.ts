import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'protected-tags',
  summary: 'List, protect and unprotect tags and wildcards (v*)',
  rank: 100,
};
