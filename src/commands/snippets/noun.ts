import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'snippets',
  summary: 'List, show, read, create, update and delete personal snippets (with the CAPTCHA step when flagged as spam)',
  rank: 250,
};
