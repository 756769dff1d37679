import { chmodSync, cpSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';
import { BIN, tempDir, type RunResult } from '../support/harness.js';

/** uid/gid of `nobody` on Debian: a user who owns nothing and can write almost nowhere. */
export const NOBODY = 65534;

/**
 * Runs the built CLI as an unprivileged user with exactly `env` (plus PATH): through setpriv when
 * the suite runs as root (as in CI), else as the current, already unprivileged, user.
 */
export async function svcAsUser(args: string[], env: Record<string, string>, input = ''): Promise<RunResult> {
  const asRoot = process.getuid?.() === 0;
  const node = [process.execPath, asRoot ? readableBin() : BIN, ...args];
  const command = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...node] : node;
  const result = await execa(command[0] as string, command.slice(1), {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    extendEnv: false,
    reject: false,
    input,
    stripFinalNewline: false,
    timeout: 240_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

let readable: string | undefined;

/**
 * The built CLI copied, laid out as installed, into a directory anyone may read: the checkout may
 * sit under a private directory (`mktemp -d`, a home of mode 0700) that the unprivileged user cannot enter.
 */
function readableBin(): string {
  if (readable) return readable;
  const root = dirname(dirname(BIN));
  const copy = tempDir('svc-readable-');
  chmodSync(copy, 0o755);
  for (const part of ['bin', 'dist', 'package.json', join('node_modules', 'lossless-json')])
    cpSync(join(root, part), join(copy, part), { recursive: true });
  readable = join(copy, relative(root, BIN));
  return readable;
}
