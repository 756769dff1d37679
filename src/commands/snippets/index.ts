import type { Resource } from '../generic/resource.js';
import { actionVerb, getVerb, listVerb } from '../generic/verbs.js';
import { idParam } from '../shared/args.js';
import { CREATE } from './create.js';

const SNIPPETS: Resource = {
  path: '/snippets',
  id: 'snippet',
  params: { snippet: idParam('snippet id', 'snippet id') },
  columns: ['id', 'title', 'file_name', 'visibility', 'author.username', 'created_at'],
  fields: ['id', 'title', 'file_name', 'description', 'visibility', 'author.username', 'created_at', 'web_url'],
};

export const commands = [
  listVerb(SNIPPETS, {
    description: 'List your personal snippets, or with --public every public one',
    requireToken: true,
    filters: [
      { flags: '--created-after <time>', key: 'created_after', help: 'only snippets created after this ISO 8601 time' },
      { flags: '--created-before <time>', key: 'created_before', help: 'only snippets created before this ISO 8601 time' },
    ],
    alternatives: [{ flags: '--public', path: '/snippets/public', help: "every user's public snippets instead of your own" }],
    examples: ['svc snippets list', 'svc snippets list --public --limit 20 -o json'],
  }),
  getVerb(SNIPPETS, { description: 'Show one snippet', examples: ['svc snippets get 42', 'svc snippets get 42 --fields id,web_url'] }),
  CREATE,
  actionVerb(SNIPPETS, {
    name: 'delete',
    method: 'DELETE',
    description: 'Delete one of your snippets (prints nothing on stdout; the exit code is the result)',
    done: ([id]) => `deleted snippet ${String(id)}`,
    scheduled: ([id]) => `deleting snippet ${String(id)} was accepted`,
    examples: ['svc snippets delete 42'],
  }),
];
