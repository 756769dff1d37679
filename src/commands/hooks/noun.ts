import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'hooks',
  summary: "List, show, create, update, delete and test a project's, a group's or the instance's webhooks, and see their deliveries",
  rank: 104,
};
