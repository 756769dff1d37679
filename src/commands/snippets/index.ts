import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerCreate } from './create.js';

export function register(program: Command, runtime: Runtime): void {
  const snippets = program.command('snippets').description('Create personal snippets (with the CAPTCHA step when flagged as spam)');
  registerCreate(snippets, runtime);
}
