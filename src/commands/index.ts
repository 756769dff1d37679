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
  { name: 'sandbox', summary: 'Run a local emulation of the service for trying commands and testing scripts', load: () => import('./sandbox/index.js') },
];
