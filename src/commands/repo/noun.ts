import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'repo',
  summary: 'Browse a repository: list the files of its tree, compare two refs, download an archive',
  rank: 120,
};
