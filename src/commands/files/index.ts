import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';

export function register(program: Command, runtime: Runtime): void {
  const files = program.command('files').description('Read repository files (metadata, or the raw bytes)');
  registerGet(files, runtime);
}
