import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'commits',
  summary: "List and show a repository's commits, commit file changes, set and list their statuses",
  rank: 110,
};
