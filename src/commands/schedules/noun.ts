import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'schedules',
  summary: 'List, show, create, update, delete and play pipeline schedules',
  rank: 50,
};
