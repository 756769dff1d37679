import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerList } from './list.js';

export function register(program: Command, runtime: Runtime): void {
  const users = program.command('users').description('List users (keyset paging, as the service requires for long listings)');
  registerList(users, runtime);
}
