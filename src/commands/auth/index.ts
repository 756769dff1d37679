import type { Command } from 'commander';
import { withExamples, type Runtime } from '../../runtime.js';
import { register as registerLogin } from './login.js';
import { register as registerLogout } from './logout.js';
import { register as registerStatus } from './status.js';

export function register(program: Command, runtime: Runtime): void {
  const auth = program.command('auth').description('Log in, log out and check which credentials are used');
  withExamples(auth, ['printf "%s\\n" "$TOKEN" | svc auth login --url https://gitlab.example.com', 'svc auth status']);
  registerLogin(auth, runtime);
  registerLogout(auth, runtime);
  registerStatus(auth, runtime);
}
