import type { Command } from 'commander';
import type { Runtime } from '../runtime.js';

export interface NounEntry {
  name: string;
  summary: string;
  load: () => Promise<{ register: (program: Command, runtime: Runtime) => void }>;
}

/** Command modules load only when their noun is used, so `svc --version` and `svc --help` stay fast. */
export const NOUNS: NounEntry[] = [
  { name: 'projects', summary: 'List, show, create and import projects', load: () => import('./projects/index.js') },
  { name: 'issues', summary: 'Show an issue and its comments (by iid)', load: () => import('./issues/index.js') },
  { name: 'pipeline', summary: 'Trigger a pipeline with variables and wait for its result', load: () => import('./pipeline/index.js') },
  { name: 'files', summary: 'Read repository files (metadata or raw bytes)', load: () => import('./files/index.js') },
  { name: 'branches', summary: "List a branch's commits", load: () => import('./branches/index.js') },
  { name: 'tags', summary: 'Show repository tags', load: () => import('./tags/index.js') },
  { name: 'jobs', summary: "Download a job's artifacts", load: () => import('./jobs/index.js') },
  { name: 'releases', summary: "List a project's releases", load: () => import('./releases/index.js') },
  { name: 'namespaces', summary: 'List namespaces', load: () => import('./namespaces/index.js') },
  { name: 'groups', summary: 'List groups', load: () => import('./groups/index.js') },
  { name: 'users', summary: 'List users', load: () => import('./users/index.js') },
  { name: 'snippets', summary: 'Create snippets', load: () => import('./snippets/index.js') },
  { name: 'auth', summary: 'Log in, log out and check which credentials are used', load: () => import('./auth/index.js') },
  { name: 'config', summary: 'Read and change the settings of config profiles', load: () => import('./config/index.js') },
  { name: 'api', summary: 'Send any request to the API with the same credentials, retries and redirects', load: () => import('./api/index.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
  { name: 'storage-move', summary: 'Move repositories between storages and watch every move to the end', load: () => import('./storage-move/index.js') },
  { name: 'sandbox', summary: 'Run a local emulation of the service for trying commands and testing scripts', load: () => import('./sandbox/index.js') },
];
