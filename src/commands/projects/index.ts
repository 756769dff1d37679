import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';
import { register as registerList } from './list.js';

export function register(program: Command, runtime: Runtime): void {
  const projects = program.command('projects').description('List, show, create and import projects');
  registerList(projects, runtime);
  registerGet(projects, runtime);
}
