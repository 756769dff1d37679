import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'variables',
  summary: 'List, show, set, delete, export and sync CI/CD variables of a project, a group or the instance',
  rank: 140,
};
