import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerCreate } from './create.js';
import { register as registerGet } from './get.js';
import { register as registerImport } from './import.js';
import { register as registerList } from './list.js';
import { register as registerUnshare } from './unshare.js';

export function register(program: Command, runtime: Runtime): void {
  const projects = program.command('projects').description('List, show, create, import and unshare projects');
  registerList(projects, runtime);
  registerGet(projects, runtime);
  registerCreate(projects, runtime);
  registerImport(projects, runtime);
  registerUnshare(projects, runtime);
}
