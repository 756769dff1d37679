import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, cleanupTempDirs, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 2 });
});

afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

describe('svc protected-branches list on a terminal', () => {
  it('shows the levels by name, and a rule name with control characters without them', async () => {
    const made = await fetch(`${sandbox.url}/api/v4/projects/1/protected_branches`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': sandbox.tokens.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'hot\x1b[2Jfix/*', merge_access_level: 30 }),
    });
    expect(made.status).toBe(201);
    const env = { ...isolatedEnv({ env: sandboxEnv(sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1' };
    const term = spawnPty(['node', BIN, 'protected-branches', 'list', '1'], { env, columns: 100, rows: 24 });
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).not.toContain('\x1b');
    expect(end.output.split('\r\n').map((line) => line.trimEnd())).toEqual([
      'name           push_access_levels  merge_access_levels  allow_force_push',
      'main           maintainer          maintainer           false',
      'release/*      maintainer          maintainer           false',
      'hot\\e[2Jfix/*  maintainer          developer            false',
      '',
    ]);
  });
});
