import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'settings',
  summary: "Show and change the instance's application settings, each typed and shown before → after",
  rank: 212,
};
