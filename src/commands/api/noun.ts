import type { NounDeclaration } from '../registry.js';

export const noun: NounDeclaration = {
  name: 'api',
  summary: 'Send any request to the API (path relative to /api/v4) with the same credentials, retries and redirects',
  leaf: true,
  rank: 280,
};
