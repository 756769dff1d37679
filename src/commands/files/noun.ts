import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'files',
  summary: 'Read repository files (metadata, or the raw bytes)',
  rank: 60,
};
