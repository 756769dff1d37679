import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerGet } from './get.js';
import { register as registerList } from './list.js';
import { register as registerSchedule } from './schedule.js';
import { register as registerVerify } from './verify.js';
import { register as registerWait } from './wait.js';
import { register as registerWeights } from './weights.js';

export function register(noun: Command, runtime: Runtime): void {
  registerWeights(noun, runtime);
  registerSchedule(noun, runtime);
  registerWait(noun, runtime);
  registerVerify(noun, runtime);
  registerList(noun, runtime);
  registerGet(noun, runtime);
}
