import type { Resource } from '../../generic/resource.js';
import { idParam } from '../../shared/args.js';

export const SNIPPETS: Resource = {
  path: '/snippets',
  id: 'snippet',
  params: { snippet: idParam('snippet id', 'snippet id') },
  columns: ['id', 'title', 'file_name', 'visibility', 'author.username', 'created_at'],
  fields: ['id', 'title', 'file_name', 'description', 'visibility', 'author.username', 'created_at', 'web_url'],
  called: ([id]) => `snippet ${String(id)}`,
  roles: { delete: 'author' },
  confirmDelete: true,
};

export const SNIPPET_ARGUMENT = SNIPPETS.params.snippet!;
