import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'storage-move',
  summary: 'Move repositories between storages: weights, schedule, watch to the end, verify',
  rank: 300,
};
