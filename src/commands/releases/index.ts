import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerList } from './list.js';

export function register(program: Command, runtime: Runtime): void {
  const releases = program.command('releases').description("List a project's releases (works with a CI job token)");
  registerList(releases, runtime);
}
