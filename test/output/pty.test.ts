import { describe, expect, it } from 'vitest';
import { spawnPty } from '../support/pty.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

describe('the pseudo-terminal helper', () => {
  it('gives the command a terminal of the asked size, types keys and returns the exit code', async () => {
    const term = spawnPty(['sh', '-c', 'stty size; printf "name? "; read x; echo "hello $x"; exit 3'], { env, columns: 100, rows: 30 });
    await term.waitFor('name? ');
    term.write('bob\r');
    const end = await term.exit();
    expect(end).toEqual({
      exitCode: 3,
      signal: null,
      output: '30 100\r\nname? bob\r\nhello bob\r\n',
      mode: { echo: true, canonical: true, signals: true, crToNewline: true, outputProcessing: true },
    });
  });

  it('delivers Ctrl-C as SIGINT through the terminal', async () => {
    const term = spawnPty(['sh', '-c', 'echo ready; exec sleep 30'], { env });
    await term.waitFor('ready\r\n');
    term.write('\x03');
    const end = await term.exit(10_000);
    expect([end.exitCode, end.signal, end.output]).toEqual([null, 'SIGINT', 'ready\r\n^C']);
  });

  it('reads the mode a command left the terminal in', async () => {
    const end = await spawnPty(['sh', '-c', 'stty raw -echo'], { env }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.mode).toEqual({ echo: false, canonical: false, signals: false, crToNewline: false, outputProcessing: false });
  });

  it('rejects a wait for text that never comes once the command ended, with what it showed', async () => {
    const term = spawnPty(['sh', '-c', 'echo something else'], { env });
    await expect(term.waitFor('never shown', 10_000)).rejects.toThrow(
      'the command ended without never shown on the terminal; it showed:\nsomething else\r\n',
    );
  });
});
