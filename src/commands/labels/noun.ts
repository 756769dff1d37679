import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'labels',
  summary: "List, show, create, update and delete a project's or a group's labels",
  rank: 190,
};
