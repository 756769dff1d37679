import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../../src/commands/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, cleanupTempDirs, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

/**
 * The README's "Resource commands" section promises that its examples run as written, in order,
 * against a fresh sandbox. Every `$ ` line of its console blocks runs here in one bash, so a
 * shell variable set by one example reaches the next; each must exit 0, or the code its
 * `# exit N` comment names, and an `svc: ` line shown under it is the exact error it printed.
 */
const README = fileURLToPath(new URL('../../README.md', import.meta.url));

interface Example {
  command: string;
  exitCode: number;
  errors: string[];
}

/** Nouns the README shows in sections of their own (credentials, storage moves, `svc api`…), not here. */
const OWN_SECTIONS = ['api', 'auth', 'completion', 'config', 'sandbox', 'storage-move'];

function resourceSection(): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n## Resource commands\n');
  return text.slice(start, text.indexOf('\n## ', start + 1));
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const block of resourceSection().matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    for (const line of (block[1] as string).split('\n')) {
      if (line.startsWith('$ ')) {
        const exit = /\s# exit (\d+)\b/.exec(line);
        found.push({ command: line.slice(2), exitCode: exit ? Number(exit[1]) : 0, errors: [] });
      } else if (line.startsWith('svc: ')) found.at(-1)!.errors.push(line);
    }
  }
  return found;
}

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.close();
  cleanupTempDirs();
});

describe("the README's resource command examples", () => {
  it('run as written against a fresh sandbox, each with the exit code and error it shows', async () => {
    const all = examples();
    const nouns = new Set(all.flatMap(({ command }) => [...command.matchAll(/\bsvc ([a-z-]+)/g)].map((m) => m[1])));
    const elsewhere = readFileSync(README, 'utf8').replace(resourceSection(), '');
    expect(OWN_SECTIONS.filter((noun) => !elsewhere.includes(`svc ${noun} `))).toEqual([]);
    expect([...nouns].sort()).toEqual(
      NOUNS.map((n) => n.name)
        .filter((name) => !OWN_SECTIONS.includes(name))
        .sort(),
    );
    const dir = tempDir('svc-readme-examples-');
    const binDir = tempDir('svc-readme-bin-');
    writeFileSync(join(binDir, 'svc'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(join(binDir, 'svc'), 0o755);
    const script = ['set -o pipefail', 'exec 3>codes'];
    all.forEach((example, i) => script.push(`{ ${example.command}\n} 2>err.${i}`, `echo $? >&3`));
    await execa('bash', ['-c', script.join('\n')], {
      cwd: dir,
      env: {
        PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: dir,
        SVC_CONFIG_DIR: join(dir, '.svc-config'),
        SVC_URL: sandbox.url,
        SVC_TOKEN: sandbox.tokens.admin,
        JOB_TOKEN: sandbox.tokens.job,
      },
      extendEnv: false,
      timeout: 300_000,
    });
    const codes = readFileSync(join(dir, 'codes'), 'utf8').trimEnd().split('\n').map(Number);
    const outcomes = all.map((example, i) => {
      const stderr = readFileSync(join(dir, `err.${i}`), 'utf8');
      const errors = stderr.split('\n').filter((line) => line.startsWith('svc: '));
      return { command: example.command, exitCode: codes[i], errors: example.errors.length > 0 ? errors : [] };
    });
    expect(outcomes).toEqual(all.map(({ command, exitCode, errors }) => ({ command, exitCode, errors })));
  }, 300_000);
});
