import type { Resource, UpdateFields } from '../../generic/resource.js';
import { idParam, requiredTextParser } from '../../shared/args.js';

/** What `snippets update` takes: --file only chooses the file that --file-name and --content-file change. */
export const SNIPPET_UPDATE: UpdateFields = {
  fields: [
    { flags: '--title <title>', help: 'new title', parse: requiredTextParser('--title') },
    { flags: '--description <text>', help: 'new description' },
    { flags: '--visibility <level>', help: 'new visibility', choices: ['public', 'internal', 'private'] },
    {
      flags: '--file <name>',
      help: 'the file --file-name and --content-file change, for a snippet with several (default: its only file)',
      parse: requiredTextParser('--file'),
    },
    { flags: '--file-name <name>', help: 'rename the file to this', parse: requiredTextParser('--file-name') },
    { flags: '--content-file <path>', help: "replace the file's content with this local file's (- reads stdin)" },
  ],
  atLeastOne: { say: 'nothing to change', except: ['--file'] },
};

export const SNIPPETS: Resource = {
  path: '/snippets',
  id: 'snippet',
  params: { snippet: idParam('snippet id', 'snippet id') },
  columns: ['id', 'title', 'file_name', 'visibility', 'author.username', 'created_at'],
  fields: ['id', 'title', 'file_name', 'description', 'visibility', 'author.username', 'created_at', 'web_url'],
  called: ([id]) => `snippet ${String(id)}`,
  update: SNIPPET_UPDATE,
  roles: { delete: 'author' },
  confirmDelete: true,
};

export const SNIPPET_ARGUMENT = SNIPPETS.params.snippet!;
