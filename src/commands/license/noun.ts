import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'license',
  summary: "Show the instance's license (plan, dates, seats)",
  rank: 218,
};
