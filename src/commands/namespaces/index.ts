import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';

const NAMESPACES: Resource = { path: '/namespaces', params: {}, columns: ['id', 'full_path', 'kind', 'parent_id'] };

export const commands = [
  listVerb(NAMESPACES, {
    description: 'List namespaces (all of them for an administrator, your own otherwise)',
    requireToken: true,
    filters: [{ flags: '--search <text>', key: 'search', help: 'only namespaces whose path contains the text' }],
    examples: ['svc namespaces list --search acme', 'svc namespaces list --all -o ndjson --fields id,full_path'],
  }),
];
