import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, cleanupTempDirs, isolatedEnv, parseNdjson } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 3000 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

describe('many requests at once on the one interrupt signal', () => {
  it('projects list --all --parallel 16: every record, exit 0, and nothing on stderr (no listener warning)', async () => {
    const result = await execa('node', [BIN, 'projects', 'list', '--all', '--parallel', '16', '-o', 'ndjson'], {
      env: isolatedEnv({ env: sandboxEnv(sandbox) }),
      extendEnv: false,
      reject: false,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const ids = parseNdjson(result.stdout).map((record) => (record as { id: number }).id);
    expect(new Set(ids).size).toBe(3000);
  });
});
