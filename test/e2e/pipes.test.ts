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

describe('a reader that goes away (#9 item 4)', () => {
  it('ends a listing early and quietly with exit 0: the reader took what it wanted', async () => {
    sandbox.clearRequests();
    const result = await execa('bash', ['-c', `node '${BIN}' projects list --all -o ndjson | head -1; exit "\${PIPESTATUS[0]}"`], {
      env: isolatedEnv({ env: sandboxEnv(sandbox) }),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 3000 });
    // 30 pages exist; the listing stops at the first page written after the reader left.
    expect(sandbox.requests().filter((r) => r.origin === 'api').length).toBeLessThanOrEqual(3);
  });

  it('keeps the failure code of a command that found a failure', async () => {
    const result = await execa(
      'bash',
      ['-c', `node '${BIN}' storage-move verify --from default --kind projects | head -1; exit "\${PIPESTATUS[0]}"`],
      {
        env: isolatedEnv({ env: sandboxEnv(sandbox) }),
        extendEnv: false,
        reject: false,
      },
    );
    expect(result.stdout).toBe('kind\tid\tname\treason');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toBe('svc: 3000 repositories remain on default');
  });

  it('reports output that cannot be written (a full disk) with one line and exit 1', async () => {
    const result = await execa('bash', ['-c', `node '${BIN}' projects list --limit 3 > /dev/full`], {
      env: isolatedEnv({ env: sandboxEnv(sandbox) }),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('svc: cannot write the output: no space left on the device (ENOSPC)');
  });
});

describe('a reader that goes away from a stream of records or bytes', () => {
  let small: Sandbox;
  beforeAll(async () => {
    small = await startTestSandbox({ projects: 4 });
  });
  afterAll(async () => {
    await small.close();
  });
  const piped = (command: string) =>
    execa('bash', ['-c', `node '${BIN}' ${command}; exit "\${PIPESTATUS[0]}"`], {
      env: isolatedEnv({ env: sandboxEnv(small) }),
      extendEnv: false,
      reject: false,
    });

  it('tokens audit | head -1: one record, exit 0, nothing on stderr but the summary', async () => {
    const result = await piped(`tokens audit --max-in-flight 1 | head -1`);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'project', id: 15 });
    expect(result.stderr).not.toMatch(/EPIPE|unexpected error/);
  });

  it('jobs artifacts --out - | head -c 4: the first bytes of the archive, exit 0, nothing on stderr', async () => {
    const result = await execa(
      'bash',
      ['-c', `node '${BIN}' jobs artifacts 2 7 --out - | head -c 4 | od -An -tx1; exit "\${PIPESTATUS[0]}"`],
      {
        env: isolatedEnv({ env: sandboxEnv(small) }),
        extendEnv: false,
        reject: false,
      },
    );
    expect([result.exitCode, result.stdout.trim(), result.stderr]).toEqual([0, '50 4b 03 04', '']);
  });
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
