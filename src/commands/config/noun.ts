import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'config',
  summary: 'Read and change the settings of config profiles',
  rank: 270,
};
