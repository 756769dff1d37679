import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'bulk',
  summary: 'Run one svc command per input record (NDJSON or ids on stdin), in parallel, resumable with a journal',
  leaf: true,
  rank: 310,
};
