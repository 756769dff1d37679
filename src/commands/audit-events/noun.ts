import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'audit-events',
  summary: 'Read the audit log of the instance, a group or a project (who changed what, and when)',
  rank: 240,
};
