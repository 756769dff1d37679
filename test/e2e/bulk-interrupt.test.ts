import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, cleanupTempDirs, isolatedEnv, spawnSvc, svc, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

let sandbox: Sandbox;

beforeAll(async () => {
  // Slow answers, so that Ctrl-C lands while items are running.
  sandbox = await startTestSandbox({ projects: 10, latencyMs: 300 });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

const archives = () =>
  sandbox
    .requests()
    .filter((r) => r.origin === 'api' && r.method === 'POST')
    .map((r) => r.rawPath);

function inputsOf(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const outcome = JSON.parse(line) as { input: string; ok: boolean };
      expect(outcome.ok).toBe(true);
      return outcome.input;
    });
}

describe('svc bulk interrupted (#16 item 4)', () => {
  it('on SIGINT finishes the running items, starts no new one, prints the command that resumes, and the rerun does the rest', async () => {
    sandbox.clearRequests();
    const journal = join(tempDir(), 'run.journal');
    const input = `${Array.from({ length: 10 }, (_, i) => i + 1).join('\n')}\n`;
    const args = ['bulk', '--max-in-flight', '2', '--journal', journal, '--', 'projects', 'archive', '{id}', '-q'];
    const child = spawnSvc(args, { env: sandboxEnv(sandbox), input });
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    child.kill('SIGINT');
    const first = await child;
    expect(first.exitCode).toBe(130);
    const done = inputsOf(String(first.stdout));
    const resume = `svc bulk --max-in-flight 2 --journal ${journal} -- projects archive '{id}' -q`;
    expect(String(first.stderr)).toBe(
      `bulk: ${done.length} ok, 0 failed\nsvc: interrupted: the running items finished, no new one was started; to resume, feed the same input to: ${resume}\n`,
    );
    expect(done.length).toBeLessThan(10);
    // Every item started was finished and reported: as many archive requests as outcome lines, and journaled.
    expect(archives().sort()).toEqual(done.map((id) => `/api/v4/projects/${id}/archive`).sort());
    expect(readFileSync(journal, 'utf8').split('\n').sort()).toEqual(
      ['', '{"run":1}', ...done.flatMap((id) => [`{"start":"${id}"}`, `{"done":"${id}"}`])].sort(),
    );

    // The run let go of the journal as it ended: the rerun is not refused.
    expect(existsSync(`${journal}.lock`)).toBe(false);

    sandbox.clearRequests();
    const rerun = await svc(args, { env: sandboxEnv(sandbox), input });
    expect(rerun.exitCode).toBe(0);
    const rest = inputsOf(rerun.stdout);
    expect([...done, ...rest].sort()).toEqual(['1', '10', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(archives().sort()).toEqual(rest.map((id) => `/api/v4/projects/${id}/archive`).sort());
  });

  it('on Ctrl-C at a terminal stops waiting for more input lines and exits 130', async () => {
    sandbox.clearRequests();
    const term = spawnPty(['node', BIN, 'bulk', '--', 'projects', 'get', '{id}', '--fields', 'id'], {
      env: isolatedEnv({ env: { ...sandboxEnv(sandbox), TERM: 'dumb' } }),
      columns: 200,
    });
    term.write('3\r');
    await term.waitFor('{"input":"3","ok":true,"exit_code":0,"error":null,"result":{"id":3}}');
    term.write('\x03');
    const end = await term.exit();
    expect(end.exitCode).toBe(130);
    expect(end.output).toContain(
      'svc: interrupted: the running items finished, no new one was started; without --journal nothing records which succeeded\r\n',
    );
    expect(end.mode).toMatchObject({ echo: true, canonical: true });
    expect(
      sandbox
        .requests()
        .filter((r) => r.origin === 'api')
        .map((r) => r.rawPath),
    ).toEqual(['/api/v4/projects/3']);
  });
});
