import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'runners',
  summary: 'List, show, pause, resume and delete CI runners, list their jobs, prune stale ones',
  rank: 230,
};
