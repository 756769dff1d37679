import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { Sandbox } from '../../src/sandbox/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm pack', () => {
  let prefix: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ projects: 30 });
    const packDir = tempDir('svc-pack-');
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: root, stdio: 'pipe' });
    const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    prefix = tempDir('svc-install-');
    execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, join(packDir, tarball)], {
      cwd: prefix,
      stdio: 'pipe',
    });
  }, 240_000);

  afterAll(async () => {
    await sandbox?.close();
    cleanupTempDirs();
  });

  it('installs without dev dependencies', () => {
    const modules = join(prefix, 'node_modules');
    expect(existsSync(join(modules, 'svc', 'dist', 'cli.js'))).toBe(true);
    expect(existsSync(join(modules, 'svc', 'dist', 'bundle', 'cli.js'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'execa']) expect(existsSync(join(modules, dev))).toBe(false);
  });

  it('runs the installed svc against the sandbox', async () => {
    const bin = join(prefix, 'node_modules', '.bin', 'svc');
    const result = await execa(bin, ['projects', 'list', '--limit', '3', '-o', 'json'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: prefix,
        SVC_CONFIG_DIR: join(prefix, 'cfg'),
        SVC_URL: sandbox.url,
        SVC_TOKEN: sandbox.tokens.admin,
      },
      extendEnv: false,
      reject: false,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(3);
  });
});
