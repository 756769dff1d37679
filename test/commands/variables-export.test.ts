import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { BIN, isolatedEnv, svc, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';

const ESC = '\u001b';
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

function variable(key: string, value: string) {
  return {
    key,
    value,
    variable_type: 'env_var',
    protected: false,
    masked: false,
    hidden: false,
    raw: false,
    environment_scope: '*',
    description: null,
  };
}

/** Values a shell would run, expand or mangle if they were not quoted right. */
const VALUES: Record<string, string> = {
  BACKTICK: 'x`touch PWNED`y',
  SUBSHELL: '$(touch PWNED)',
  DOLLAR: '$HOME ${HOME} $1',
  NEWLINES: 'line 1\nline 2',
  TRAILING: 'ends in newlines\n\n',
  BACKSLASHES: 'C:\\dir\\n \\\\ \\',
  TILDE: '~root',
  COLON_TILDE: 'a:~root',
  QUOTES: `it's "quoted" ''`,
  LONE_QUOTE: "'",
  TABS_AND_CR: '\ta\r\n',
  CONTROL: `${ESC}[2J\u0007`,
  UNICODE: 'é ✓ \u009b',
  SEMICOLONS: 'a; b && c | d > e',
  GLOB: '* ? [a]',
  EMPTY: '',
  PLAIN: 'https://example.com/a-b_c.d@e+f,g=h',
};

const HOSTILE = [variable('X=1;touch PWNED;Y', 'boom'), variable('1ABC', 'digit first'), variable('NUL', 'a\u0000b')];

function serve(name: string, variables: unknown[]): Record<string, string> {
  const url = server.add(name, json(200, variables));
  return { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' };
}

/** Sources `file` with `set -a` in `shell` (in `dir`) and returns each named variable's bytes. */
function sourced(shell: string, dir: string, file: string, keys: string[]): Record<string, string> {
  const script = `set -a; . ./${file}; printf '%s\\0' ${keys.map((k) => `"$${k}"`).join(' ')}`;
  const out = execFileSync(shell, ['-c', script], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' } });
  const parts = out.toString('utf8').split('\u0000');
  return Object.fromEntries(keys.map((key, i) => [key, parts[i] as string]));
}

describe('variables export', () => {
  it('writes dotenv that sh, bash and dash source back byte for byte, running nothing', async () => {
    const env = serve('shell', [...Object.entries(VALUES).map(([k, v]) => variable(k, v)), ...HOSTILE]);
    const exported = await svc(['variables', 'export', '--project', '1'], { env });
    expect(exported.exitCode).toBe(0);
    expect(exported.stderr).toBe(
      'warning: left out X=1;touch PWNED;Y (*): not a valid key (letters, digits and _ only)\n' +
        'warning: left out 1ABC (*): a shell variable name cannot start with a digit (use -o json)\n' +
        'warning: left out NUL (*): a shell variable cannot hold its NUL byte (use -o json)\n',
    );
    expect(exported.stdout.split('\n').slice(0, 3)).toEqual([
      "BACKTICK='x`touch PWNED`y'",
      "SUBSHELL='$(touch PWNED)'",
      "DOLLAR='$HOME ${HOME} $1'",
    ]);
    expect(exported.stdout).toContain("\nQUOTES='it'\\''s \"quoted\" '\\'''\\'''\n");
    expect(exported.stdout).toContain('\nEMPTY=\nPLAIN=https://example.com/a-b_c.d@e+f,g=h\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'ci.env'), exported.stdout);
    for (const shell of ['sh', 'bash', 'dash']) {
      expect(sourced(shell, dir, 'ci.env', Object.keys(VALUES))).toEqual(VALUES);
      expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    }
  });

  it('is read back by sync: every value the same, nothing to change', async () => {
    const variables = Object.entries(VALUES).map(([k, v]) => variable(k, v));
    const env = serve('sync', variables);
    const exported = await svc(['variables', 'export', '--project', '1'], { env });
    const path = join(tempDir(), 'ci.env');
    writeFileSync(path, exported.stdout);
    const plan = await svc(['variables', 'sync', '--project', '1', '--from-file', path, '--dry-run'], { env });
    expect(plan.stderr).toBe(
      `dry run: 0 to create, 0 to update, 0 to delete, ${variables.length} unchanged; nothing changed in project 1\n`,
    );
    expect(plan.stdout).toBe(
      Object.keys(VALUES)
        .map((key) => `unchanged\t${key}\t*\n`)
        .join(''),
    );
    expect(plan.exitCode).toBe(0);
  });

  it('keeps every value exact in JSON, leaving out only keys sync could not read back', async () => {
    const env = serve('json', [variable('ODD', VALUES.BACKSLASHES + VALUES.CONTROL), ...HOSTILE]);
    const exported = await svc(['variables', 'export', '--project', '1', '-o', 'json'], { env });
    expect(exported.exitCode).toBe(0);
    expect(exported.stderr).toBe('warning: left out X=1;touch PWNED;Y (*): not a valid key (letters, digits and _ only)\n');
    const records = (JSON.parse(exported.stdout) as Array<{ key: string; value: string }>).map(({ key, value }) => [key, value]);
    expect(records).toEqual([
      ['ODD', VALUES.BACKSLASHES + VALUES.CONTROL],
      ['1ABC', 'digit first'],
      ['NUL', 'a\u0000b'],
    ]);
  });

  it('shows control characters as escapes on a terminal', async () => {
    const env = serve('terminal', [variable('CLEAR', `a${ESC}[2J${ESC}]52;c;cGFzdGU=\u0007b`), variable('TWO', 'x\ny')]);
    const end = await spawnPty(['node', BIN, 'variables', 'export', '--project', '1'], {
      env: { ...isolatedEnv({ env }), TERM: 'xterm' },
    }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe("CLEAR='a\\e[2J\\e]52;c;cGFzdGU=\\x07b'\r\nTWO='x\r\ny'\r\n");
  });
});

describe('variables list --show-values', () => {
  it('shows control characters in values as escapes on a terminal', async () => {
    const env = serve('list', [variable('CLEAR', `a${ESC}[2J${ESC}]0;title\u0007b`)]);
    const args = ['node', BIN, 'variables', 'list', '--project', '1', '--show-values', '--fields', 'key,value'];
    const end = await spawnPty(args, { env: { ...isolatedEnv({ env }), TERM: 'xterm', NO_COLOR: '1' }, columns: 120 }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe('key    value\r\nCLEAR  a\\e[2J\\e]0;title\\x07b\r\n');
  });
});
