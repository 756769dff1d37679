import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandTree } from '../../src/cli.js';
import { commands as projectCommands } from '../../src/commands/projects/index.js';
import { GLOBAL_OPTIONS, globalOptionsTable } from '../../src/config/global-options.js';

const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const longFlags = (text: string) => [...text.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).sort();

describe('README', () => {
  it('lists the global options exactly as the options table declares them', () => {
    const block = /<!-- global-options:[^\n]*-->\n([\s\S]*?)\n<!-- \/global-options -->/.exec(readme())?.[1];
    expect(block).toBe(globalOptionsTable());
    expect(block?.split('\n')).toHaveLength(GLOBAL_OPTIONS.length + 2);
  });

  it('names exactly the options projects create and projects update declare', () => {
    const row = /^\| `get PROJECT`, `create`, `update PROJECT` \| (.*) \|$/m.exec(readme())?.[1] ?? '';
    const [shared = '', createOnly = '', updateOnly = ''] = row.split('; ');
    expect([createOnly.startsWith('`create` also '), updateOnly.startsWith('`update` also ')]).toEqual([true, true]);
    const declared = (name: string) =>
      longFlags(
        projectCommands
          .find((c) => c.name === name)!
          .options!.map((o) => o.flags)
          .join(' '),
      );
    expect(longFlags(`${shared} ${createOnly}`)).toEqual(declared('create'));
    expect(longFlags(`${shared} ${updateOnly}`)).toEqual(declared('update'));
  });

  it('names exactly the commands that take -y, --yes in its confirmation row', async () => {
    const row = /^\| confirmation \| Verbs with `-y, --yes` \(([^)]*)\)/m.exec(readme())?.[1] ?? '';
    const listed = [...row.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const program = await commandTree({
      stdin: Readable.from([]),
      stdout: sink,
      stderr: sink,
      env: {},
      isTTY: { stdin: false, stdout: false, stderr: false },
      signal: new AbortController().signal,
    });
    const asking: string[] = [];
    const walk = (command: Command, path: string[]) => {
      if (command.options.some((o) => o.long === '--yes')) asking.push(path.join(' '));
      for (const child of command.commands) walk(child, [...path, child.name()]);
    };
    walk(program, []);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...asking].sort());
  });
});
