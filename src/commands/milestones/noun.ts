import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'milestones',
  summary: 'List, show, create, update, close, activate and delete milestones',
  rank: 200,
};
