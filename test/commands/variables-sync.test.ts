import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const dir = tempDir();

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const set = (project: string, ...args: string[]) => suite.run(['variables', 'set', '--project', project, ...args]);

describe('variables export', () => {
  it('writes dotenv that reads back, leaving out masked, hidden and scoped variables with a warning each', async () => {
    await set('5', 'PLAIN', '--value', 'simple-value');
    await set('5', 'QUOTED', '--value', 'a "b" $c\nline two');
    await set('5', 'TOKEN', '--value', 'masked-secret-9', '--masked');
    await set('5', 'HID', '--value', 'hidden-secret-9', '--hidden');
    await set('5', 'URL', '--value', 'stage', '--environment-scope', 'staging');
    const r = await suite.run(['variables', 'export', '--project', '5'], { secrets: ['masked-secret-9', 'hidden-secret-9'] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('PLAIN=simple-value\nQUOTED=\'a "b" $c\nline two\'\n');
    expect(r.stderr).toBe(
      'warning: left out TOKEN (*): masked (add --show-values to export it)\n' +
        'warning: left out HID (*): hidden, its value cannot be read\n' +
        'warning: left out URL (staging): dotenv has no environment scopes (use -o json)\n',
    );
    const roundTrip = await suite.run(['variables', 'sync', '--project', '8', '--from-file', file('exported.env', r.stdout)]);
    expect(roundTrip.exitCode).toBe(0);
    const copied = await suite.run(['variables', 'export', '--project', '8']);
    expect(copied.stdout).toBe(r.stdout);

    const json = await suite.run(['variables', 'export', '--project', '5', '-o', 'json', '--show-values']);
    expect(
      JSON.parse(json.stdout).map((v: { key: string; value: string; environment_scope: string }) => [v.key, v.value, v.environment_scope]),
    ).toEqual([
      ['PLAIN', 'simple-value', '*'],
      ['QUOTED', 'a "b" $c\nline two', '*'],
      ['TOKEN', 'masked-secret-9', '*'],
      ['URL', 'stage', 'staging'],
    ]);
    expect(json.stderr).toBe('warning: left out HID (*): hidden, its value cannot be read\n');
  });

  it('refuses a format other than dotenv and json, and --instance', async () => {
    const tsv = await suite.run(['variables', 'export', '--project', '5', '-o', 'tsv']);
    expect(tsv.exitCode).toBe(2);
    expect(tsv.stderr).toBe('svc: export writes dotenv (the default) or JSON (-o json)\n');
    const none = await suite.run(['variables', 'export']);
    expect(none.stderr).toBe('svc: give exactly one of --project or --group\n');
  });
});

describe('variables sync', () => {
  it('prints the plan per key and scope, applies it, and a second run changes nothing', async () => {
    await set('6', 'KEEP', '--value', 'same');
    await set('6', 'CHANGE', '--value', 'old');
    await set('6', 'EXTRA', '--value', 'x');
    const env = file('sync.env', '# deploy settings\nKEEP=same\nexport CHANGE="new value"\nADD=\'lit $eral\'\n');
    const dry = await suite.run(['variables', 'sync', '--project', '6', '--from-file', env, '--prune', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toBe('unchanged\tKEEP\t*\nupdate\tCHANGE\t*\tvalue\ncreate\tADD\t*\ndelete\tEXTRA\t*\n');
    expect(dry.stderr).toBe('dry run: 1 to create, 1 to update, 1 to delete, 1 unchanged; nothing changed in project 6\n');
    expect(suite.requests().map((q) => q.method)).toEqual(['GET']);

    const applied = await suite.run(['variables', 'sync', '--project', '6', '--from-file', env, '--prune']);
    expect(applied.exitCode).toBe(0);
    expect(applied.stderr).toBe('synced project 6: 1 created, 1 updated, 1 deleted, 1 unchanged, 0 failed\n');
    const list = await suite.run(['variables', 'list', '--project', '6', '--fields', 'key,value', '-o', 'tsv']);
    expect(list.stdout).toBe('key\tvalue\nKEEP\tsame\nCHANGE\tnew value\nADD\tlit $eral\n');

    const again = await suite.run(['variables', 'sync', '--project', '6', '--from-file', env, '--prune']);
    expect(again.stdout).toBe('unchanged\tKEEP\t*\nunchanged\tCHANGE\t*\nunchanged\tADD\t*\n');
    expect(again.stderr).toBe('synced project 6: 0 created, 0 updated, 0 deleted, 3 unchanged, 0 failed\n');
  });

  it('reads JSON with scopes and attributes, and exits 8 naming each failed step', async () => {
    const json = file(
      'vars.json',
      JSON.stringify([
        { key: 'URL', value: 'https://prod', environment_scope: 'production', protected: true },
        { key: 'URL', value: 'https://stage', environment_scope: 'staging' },
        { key: 'SHORT', value: 'abc', masked: true },
      ]),
    );
    const r = await suite.run(['variables', 'sync', '--project', '7', '--from-file', json]);
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('create\tURL\tproduction\ncreate\tURL\tstaging\ncreate\tSHORT\t*\n');
    expect(r.stderr).toBe(
      'warning: create SHORT (*) failed: POST /projects/7/variables failed: 400 Bad Request: value: is invalid\n' +
        'svc: sync of project 7 incomplete: 2 created, 0 updated, 0 deleted, 0 unchanged, 1 failed\n',
    );
    const prod = await suite.run([
      'variables',
      'get',
      '--project',
      '7',
      'URL',
      '--environment-scope',
      'production',
      '--fields',
      'value,protected',
      '-o',
      'tsv',
    ]);
    expect(prod.stdout).toBe('value\tprotected\nhttps://prod\ttrue\n');
  });

  it('refuses a bad file before any request (exit 2)', async () => {
    const cases: Array<[string, string]> = [
      [file('bad.env', 'OK=1\nnot a line\n'), 'bad.env:2: expected KEY=VALUE'],
      [file('dup.env', 'A=1\nA=2\n'), 'dup.env: A (*) is declared twice'],
      [file('key.env', 'MY-KEY=1\n'), "key.env:1: invalid key 'MY-KEY': letters, digits and _ only"],
      [file('quote.env', 'A="open\n'), 'quote.env:1: unterminated " quote'],
      [file('single.env', "A=1\nB='open\nstill open\n"), "single.env:2: unterminated ' quote"],
      [file('after.env', "A='two\nlines'x\n"), "after.env:2: unexpected text after the closing ' quote"],
      [file('bad.json', '[{"key":"A"}]'), 'bad.json: item 1 (A) has no string "value"'],
      [file('broken.json', '{"A": 1}'), 'broken.json: the value of A must be a string'],
    ];
    for (const [path, message] of cases) {
      const r = await suite.run(['variables', 'sync', '--project', '7', '--from-file', path]);
      expect(r.stderr).toBe(`svc: ${join(dir, message)}\n`);
      expect(r.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });
});
