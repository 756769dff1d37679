import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'ci',
  summary: "Check a CI config (a file, or the project's own .gitlab-ci.yml) in a project's context",
  rank: 42,
};
