import type { Command } from 'commander';
import { withExamples, type Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';
import { register as registerList } from './list.js';
import { register as registerPath } from './path.js';
import { register as registerSet } from './set.js';
import { register as registerUnset } from './unset.js';

export function register(program: Command, runtime: Runtime): void {
  const config = program.command('config').description('Read and change the settings of config profiles');
  withExamples(config, ['svc config list', 'svc config set url https://gitlab.example.com --profile work']);
  registerGet(config, runtime);
  registerSet(config, runtime);
  registerUnset(config, runtime);
  registerList(config, runtime);
  registerPath(config, runtime);
}
