import { LOGIN } from './login.js';
import { LOGOUT } from './logout.js';
import { STATUS } from './status.js';

export const examples = ['printf "%s\\n" "$TOKEN" | svc auth login --url https://gitlab.example.com', 'svc auth status'];

export const commands = [LOGIN, LOGOUT, STATUS];
