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
  { name: 'auth', summary: 'Log in, log out and check which credentials are used', load: () => import('./auth/index.js') },
  { name: 'config', summary: 'Read and change the settings of config profiles', load: () => import('./config/index.js') },
  { name: 'api', summary: 'Send any request to the API with the same credentials, retries and redirects', load: () => import('./api/index.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
  { name: 'storage-move', summary: 'Move repositories between storages and watch every move to the end', load: () => import('./storage-move/index.js') },
  { name: 'sandbox', summary: 'Run a local emulation of the service for trying commands and testing scripts', load: () => import('./sandbox/index.js') },
];
