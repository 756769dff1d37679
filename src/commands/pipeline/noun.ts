import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'pipeline',
  summary: 'List, show, trigger, cancel, retry and delete pipelines, and wait for their result',
  rank: 40,
};
