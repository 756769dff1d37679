import type { Command } from 'commander';
import { withExamples } from '../../cli/build.js';
import type { Runtime } from '../../runtime.js';
import { register as registerLogin } from './login.js';
import { register as registerLogout } from './logout.js';
import { register as registerStatus } from './status.js';

export function register(noun: Command, runtime: Runtime): void {
  withExamples(noun, ['printf "%s\\n" "$TOKEN" | svc auth login --url https://gitlab.example.com', 'svc auth status']);
  registerLogin(noun, runtime);
  registerLogout(noun, runtime);
  registerStatus(noun, runtime);
}
