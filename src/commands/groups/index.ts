import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerList } from './list.js';

export function register(program: Command, runtime: Runtime): void {
  const groups = program.command('groups').description('List groups');
  registerList(groups, runtime);
}
