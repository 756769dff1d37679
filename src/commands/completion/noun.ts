import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'completion',
  summary: 'Print a shell completion script for every command and option',
  leaf: true,
  rank: 290,
};
