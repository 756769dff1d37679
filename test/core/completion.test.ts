import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';

afterAll(() => cleanupTempDirs());

/** Runs the generated bash function the way bash's completion would, and returns its candidates. */
function complete(script: string, line: string): string[] {
  const file = join(tempDir(), 'svc.bash');
  writeFileSync(file, script);
  const words = line.split(' ');
  const program = [
    `source ${file}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_svc_completion',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return execFileSync('bash', ['-c', program]).toString().split('\n').filter(Boolean);
}

describe('svc completion', () => {
  it('bash completes nouns, verbs and options from the command tree', async () => {
    const result = await svc(['completion', 'bash']);
    expect(result.exitCode).toBe(0);
    const script = result.stdout;
    expect(complete(script, 'svc ')).toEqual(expect.arrayContaining(['projects', 'auth', 'config', 'api', 'completion']));
    expect(complete(script, 'svc aut')).toEqual(['auth']);
    expect(complete(script, 'svc auth ')).toEqual(expect.arrayContaining(['login', 'logout', 'status']));
    expect(complete(script, 'svc --url http://x config s')).toEqual(['set']);
    expect(complete(script, 'svc projects list --li')).toEqual(['--limit']);
    expect(complete(script, 'svc -o json projects list --all --per')).toEqual(['--per-page']);
    expect(complete(script, 'svc api user --pag')).toEqual(['--paginate']);
    expect(complete(script, 'svc auth login --no')).toEqual(['--no-verify']);
  });

  it('bash offers each option once: a command keeps its own and drops the global one of the same name', async () => {
    const script = (await svc(['completion', 'bash'])).stdout;
    for (const line of ['svc pipeline create 1 --', 'svc projects import --', 'svc projects list --', 'svc --']) {
      const words = complete(script, line);
      expect(words.length, line).toBeGreaterThan(5);
      expect(new Set(words).size, line).toBe(words.length);
    }
    expect(complete(script, 'svc pipeline create 1 --ti')).toEqual(['--timeout']);
  });

  it('bash completes the values of options with choices, per command', async () => {
    const script = (await svc(['completion', 'bash'])).stdout;
    expect(complete(script, 'svc -o ')).toEqual(['table', 'json', 'ndjson', 'tsv']);
    expect(complete(script, 'svc --output n')).toEqual(['ndjson']);
    expect(complete(script, 'svc projects list -o t')).toEqual(['table', 'tsv']);
    expect(complete(script, 'svc --token-type ')).toEqual(['private', 'oauth', 'job']);
    expect(complete(script, 'svc projects list --visibility ')).toEqual(['public', 'internal', 'private']);
    expect(complete(script, 'svc users list --order-by ')).toEqual(['id', 'name', 'username', 'created_at', 'updated_at']);
    expect(complete(script, 'svc projects list --order-by ')).not.toContain('username');
    expect(complete(script, 'svc projects list --limit 5 --')).toContain('--all');
  });

  it('bash keeps a value with a space as one word and completes choices of arguments (#9 item 11)', async () => {
    const script = (await svc(['completion', 'bash'])).stdout;
    expect(complete(script, 'svc storage-move list --state cl')).toEqual(['cleanup\\ failed']);
    expect(complete(script, 'svc completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(script, 'svc completion z')).toEqual(['zsh']);
  });

  it('zsh and fish scripts hold every noun, verb and option', async () => {
    const zsh = (await svc(['completion', 'zsh'])).stdout;
    expect(zsh.split('\n')[0]).toBe('#compdef svc');
    expect(zsh).toMatch(/"auth login"\|"auth login "\*\) .*\*\) svc_items=\(.*'--refresh-token-file:/);
    expect(zsh).toMatch(/"projects"\) .*\*\) svc_items=\('list:/);
    expect(zsh).toMatch(/""\) case "\$svc_prev" in .*-o\|--output\) svc_items=\('table' 'json' 'ndjson' 'tsv'\)/);
    const fish = (await svc(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c svc -n '__fish_seen_subcommand_from projects; and not __fish_seen_subcommand_from");
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from api' -s X -l method -r/);
    expect(fish).toMatch(/complete -c svc -s o -l output -x -a 'table json ndjson tsv'/);
    expect(fish).toMatch(
      /-n '__fish_seen_subcommand_from projects; and __fish_seen_subcommand_from list' -l visibility -x -a 'public internal private'/,
    );
  });

  it('refuses an unknown shell', async () => {
    const result = await svc(['completion', 'tcsh']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('help', () => {
  it('every core command shows at least one example', async () => {
    const commands = [
      ['auth'],
      ['auth', 'login'],
      ['auth', 'logout'],
      ['auth', 'status'],
      ['config'],
      ['config', 'get'],
      ['config', 'set'],
      ['config', 'list'],
      ['config', 'path'],
      ['api'],
      ['completion'],
    ];
    const results = await Promise.all(commands.map((c) => svc([...c, '--help'])));
    results.forEach((result, i) => {
      expect(result.exitCode, commands[i]!.join(' ')).toBe(0);
      expect(result.stdout, commands[i]!.join(' ')).toMatch(/\nExamples:\n {2}\$ svc |\nExamples:\n {2}\$ \S+.*svc /);
    });
  });
});
