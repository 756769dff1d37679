import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerCommits } from './commits.js';

export function register(program: Command, runtime: Runtime): void {
  const branches = program.command('branches').description("List a branch's commits (names with / and + work as typed)");
  registerCommits(branches, runtime);
}
