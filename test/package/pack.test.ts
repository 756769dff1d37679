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
  let packOutput: { stdout: string; stderr: string; tarball: string };
  let installOutput: { stdout: string; stderr: string };

  beforeAll(async () => {
    sandbox = await startTestSandbox({ projects: 30 });
    const packDir = tempDir('svc-pack-');
    const quiet = ['--no-update-notifier', '--no-audit', '--no-fund'];
    // npm pack builds first (prepack): the build itself prints nothing, so only the tarball's name shows.
    const pack = await execa('npm', ['pack', '--silent', ...quiet, '--pack-destination', packDir], { cwd: root });
    const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    packOutput = { stdout: pack.stdout, stderr: pack.stderr, tarball };
    prefix = tempDir('svc-install-');
    const install = await execa('npm', ['install', '--omit=dev', ...quiet, '--no-save', '--prefix', prefix, join(packDir, tarball)], {
      cwd: prefix,
    });
    installOutput = { stdout: install.stdout, stderr: install.stderr };
  }, 240_000);

  afterAll(async () => {
    await sandbox?.close();
    cleanupTempDirs();
  });

  it('packs with no build chatter, and installs with no warning (no install or prepare script to allow)', () => {
    expect([packOutput.stdout, packOutput.stderr]).toEqual([packOutput.tarball, '']);
    expect(installOutput.stderr).toBe('');
    expect(installOutput.stdout).toMatch(/^\nadded \d+ packages in [\d.]+m?s$/);
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
