import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerList } from './list.js';

export function register(program: Command, runtime: Runtime): void {
  const namespaces = program.command('namespaces').description('List the user and group namespaces you can create projects in');
  registerList(namespaces, runtime);
}
