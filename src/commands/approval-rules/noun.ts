import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'approval-rules',
  summary: "List, show, create, update and delete a project's merge request approval rules",
  rank: 102,
};
