import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'jobs',
  summary: 'List and show jobs, read their logs, retry, cancel and play them, download their artifacts',
  rank: 130,
};
