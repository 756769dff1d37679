import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanupTempDirs, isolatedEnv } from '../support/harness.js';

afterAll(() => {
  cleanupTempDirs();
});

/** Runs `svc ARGS` through bash with the shell text after it (a redirection or a pipe); the exit code is svc's. */
function shell(args: string, after: string) {
  return execa('bash', ['-c', `node '${BIN}' ${args} ${after}; exit "\${PIPESTATUS[0]}"`], {
    env: isolatedEnv(),
    extendEnv: false,
    reject: false,
  });
}

const FULL_DISK = 'svc: cannot write the output: no space left on the device (ENOSPC)';

describe('--version on output that cannot be written', () => {
  it.each(['--version', '-V'])('svc %s | true: the reader went away, exit 0 and nothing on stderr', async (flag) => {
    const result = await shell(flag, '| true');
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
  });

  it.each(['--version', '-V'])('svc %s > /dev/full: one line and exit 1', async (flag) => {
    const result = await shell(flag, '> /dev/full');
    expect([result.exitCode, result.stderr]).toEqual([1, FULL_DISK]);
  });
});

describe('help on output that cannot be written', () => {
  it.each(['--help', 'help', 'help projects', 'projects', 'projects list --help', 'projects --version'])(
    'svc %s > /dev/full: one line and exit 1',
    async (args) => {
      const result = await shell(args, '> /dev/full');
      expect([result.exitCode, result.stderr]).toEqual([1, FULL_DISK]);
    },
  );

  it('svc --help | head -1: the first line, exit 0 and nothing on stderr', async () => {
    const result = await shell('--help', '| head -1');
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, 'Usage: svc [options] [command]', '']);
  });

  it('svc --help to a reader gone before the first byte: exit 0 and nothing on stderr', async () => {
    const result = await shell('--help', '| true');
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
  });
});
