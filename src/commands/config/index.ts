import type { Command } from 'commander';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';
import { register as registerList } from './list.js';
import { register as registerPath } from './path.js';
import { register as registerSet } from './set.js';
import { register as registerUnset } from './unset.js';

export function register(noun: Command, runtime: Runtime): void {
  withExamples(noun, ['svc config list', 'svc config set url https://gitlab.example.com --profile work']);
  registerGet(noun, runtime);
  registerSet(noun, runtime);
  registerUnset(noun, runtime);
  registerList(noun, runtime);
  registerPath(noun, runtime);
}
