import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'sandbox',
  summary: 'Run a local emulation of the service on loopback until Ctrl-C (for trying commands and testing scripts)',
  leaf: true,
  rank: 320,
};
