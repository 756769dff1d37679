import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'broadcast',
  summary: 'List, show, create, update and delete the broadcast messages shown to the users of the instance',
  rank: 214,
};
