import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'packages',
  summary: "List, show and delete a project's packages and their files, and clean up old versions",
  rank: 84,
};
