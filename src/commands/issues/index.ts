import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';
import { register as registerNotes } from './notes.js';

export function register(program: Command, runtime: Runtime): void {
  const issues = program
    .command('issues')
    .description("Show issues and their comments (by the issue's iid, the number shown in the web UI)");
  registerGet(issues, runtime);
  registerNotes(issues, runtime);
}
