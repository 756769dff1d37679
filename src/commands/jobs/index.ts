import type { Command } from 'commander';
import type { Runtime } from '../../runtime.js';
import { register as registerArtifacts } from './artifacts.js';

export function register(program: Command, runtime: Runtime): void {
  const jobs = program.command('jobs').description("Download a job's artifact archive (works with a CI job token)");
  registerArtifacts(jobs, runtime);
}
