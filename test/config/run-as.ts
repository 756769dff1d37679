import { execa } from 'execa';
import { BIN, type RunResult } from '../support/harness.js';

/** uid/gid of `nobody` on Debian: a user who owns nothing and can write almost nowhere. */
export const NOBODY = 65534;

/**
 * Runs the built CLI as an unprivileged user with exactly `env` (plus PATH): through setpriv when
 * the suite runs as root (as in CI), else as the current, already unprivileged, user.
 */
export async function svcAsUser(args: string[], env: Record<string, string>, input = ''): Promise<RunResult> {
  const node = [process.execPath, BIN, ...args];
  const command = process.getuid?.() === 0 ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...node] : node;
  const result = await execa(command[0] as string, command.slice(1), {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    extendEnv: false,
    reject: false,
    input,
    stripFinalNewline: false,
    timeout: 60_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
