import type { Command } from 'commander';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { commandTree } from '../../src/cli.js';
import { svc } from '../support/harness.js';

/** Every command the registry holds, as the words that name it: none can be forgotten here. */
async function commandPaths(): Promise<string[][]> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const program = await commandTree({
    stdin: process.stdin,
    stdout: sink,
    stderr: sink,
    env: {},
    isTTY: { stdin: false, stdout: false, stderr: false },
    signal: new AbortController().signal,
  });
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    paths.push(path);
    for (const child of command.commands) walk(child, [...path, child.name()]);
  };
  for (const noun of program.commands) walk(noun, [noun.name()]);
  return paths;
}

/** The interface scripts depend on: any change to a flag, argument or example shows up here. */
describe('--help of every command', async () => {
  const paths = await commandPaths();

  it('svc --help', async () => {
    const help = await svc(['--help'], { env: { COLUMNS: '100' } });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatchSnapshot();
  });

  for (const path of paths) {
    it(`svc ${path.join(' ')} --help`, async () => {
      const help = await svc([...path, '--help'], { env: { COLUMNS: '100' } });
      expect(help.exitCode).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatchSnapshot();
    });
  }

  it('every leaf command shows examples', () => {
    const leaves = paths.filter((path) => !paths.some((other) => other.length > path.length && path.every((w, i) => other[i] === w)));
    expect(leaves.length).toBeGreaterThanOrEqual(30);
    return Promise.all(
      leaves.map(async (path) => {
        const help = await svc([...path, '--help'], { env: { COLUMNS: '100' } });
        expect(help.stdout, path.join(' ')).toMatch(/\nExamples:\n {2}\$ .*\bsvc /);
      }),
    );
  });
});
