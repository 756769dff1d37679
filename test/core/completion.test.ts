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
    expect(complete(script, 'svc au')).toEqual(['auth']);
    expect(complete(script, 'svc auth ')).toEqual(expect.arrayContaining(['login', 'logout', 'status']));
    expect(complete(script, 'svc --url http://x config s')).toEqual(['set']);
    expect(complete(script, 'svc projects list --li')).toEqual(['--limit']);
    expect(complete(script, 'svc -o json projects list --all --per')).toEqual(['--per-page']);
    expect(complete(script, 'svc api user --pag')).toEqual(['--paginate']);
    expect(complete(script, 'svc auth login --no')).toEqual(['--no-verify']);
  });

  it('zsh and fish scripts hold every noun, verb and option', async () => {
    const zsh = (await svc(['completion', 'zsh'])).stdout;
    expect(zsh.split('\n')[0]).toBe('#compdef svc');
    expect(zsh).toMatch(/"auth login"\|"auth login "\*\) svc_items=\(.*'--refresh-token-file:/);
    expect(zsh).toMatch(/"projects"\) svc_items=\('list:/);
    const fish = (await svc(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c svc -n '__fish_seen_subcommand_from projects; and not __fish_seen_subcommand_from");
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from api' -s X -l method -r/);
    expect(fish).toMatch(/complete -c svc -s o -l output -r/);
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
      ['auth'], ['auth', 'login'], ['auth', 'logout'], ['auth', 'status'],
      ['config'], ['config', 'get'], ['config', 'set'], ['config', 'list'], ['config', 'path'],
      ['api'], ['completion'],
    ];
    const results = await Promise.all(commands.map((c) => svc([...c, '--help'])));
    results.forEach((result, i) => {
      expect(result.exitCode, commands[i]!.join(' ')).toBe(0);
      expect(result.stdout, commands[i]!.join(' ')).toMatch(/\nExamples:\n {2}\$ svc |\nExamples:\n {2}\$ \S+.*svc /);
    });
  });
});
