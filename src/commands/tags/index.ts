import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';

export function register(program: Command, runtime: Runtime): void {
  const tags = program.command('tags').description('Show repository tags (names with / and + work as typed)');
  registerGet(tags, runtime);
}
