import { getVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { CREATE } from './create.js';
import { LIST } from './list.js';
import { RAW } from './raw.js';
import { SNIPPETS } from './shared/resource.js';
import { UPDATE } from './update.js';

export const commands = [
  LIST,
  getVerb(SNIPPETS, { description: 'Show one snippet', examples: ['svc snippets get 42', 'svc snippets get 42 --fields id,web_url'] }),
  RAW,
  CREATE,
  UPDATE,
  writeVerb(SNIPPETS, {
    name: 'delete',
    description: 'Delete one of your snippets (asks first on a terminal; prints nothing on stdout)',
    notes: 'Only the author can delete a snippet; anyone else gets "404 Snippet Not Found" (exit 5).',
    examples: ['svc snippets delete 42', 'svc snippets delete 42 --yes'],
  }),
];
