import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerCreate } from './create.js';
import { register as registerGet } from './get.js';
import { register as registerWait } from './wait.js';

export function register(program: Command, runtime: Runtime): void {
  const pipeline = program.command('pipeline').description('Trigger a pipeline with variables, show it, wait for its result');
  registerCreate(pipeline, runtime);
  registerGet(pipeline, runtime);
  registerWait(pipeline, runtime);
}
