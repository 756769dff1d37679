import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'job-token-scope',
  summary: "Show and change which projects' CI job tokens may reach a project, and answer whether one may",
  rank: 57,
};
