import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'issues',
  summary: "List, show, open, change, close and comment on issues (by the issue's iid, the number shown in the web UI)",
  rank: 20,
};
