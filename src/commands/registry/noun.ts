import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'registry',
  summary: "List a project's container registry repositories and tags, and clean tags up by name, number and age",
  rank: 82,
};
