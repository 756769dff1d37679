import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'mr',
  aliases: ['merge-requests'],
  summary: 'List, open, update, merge, approve, comment on and diff merge requests (by iid, !12 in the web UI)',
  rank: 30,
};
