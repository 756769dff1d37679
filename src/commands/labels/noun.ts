import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'labels',
  summary: "List, show, create, update and delete a project's or a group's labels; sync one label set across a group",
  rank: 190,
};
