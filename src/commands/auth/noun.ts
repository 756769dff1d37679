import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'auth',
  summary: 'Log in, log out and check which credentials are used',
  rank: 260,
};
