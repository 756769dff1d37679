import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'members',
  summary: "List, add, change and remove a project's or a group's members and their access levels (inherited too)",
  rank: 180,
};
