import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoSecrets, cleanupTempDirs, registerSecrets, spawnSvc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { startScriptedServer } from './scripted-server.js';

// The server dies while svc is paging; svc dies while it downloads. Neither may leave output
// that looks complete: no JSON document, no partial ndjson line, no file under the final name.
const PROJECTS = 5000;
const PAGE_DELAY_MS = 150;

afterAll(() => cleanupTempDirs());

function waitFor(check: () => boolean, what: string, timeoutMs = 240_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 10);
  });
}

/** Starts `projects list --all` against a slow sandbox and closes the sandbox once `afterLines` lines of output arrived. */
async function listAndKillServer(format: 'ndjson' | 'json', afterLines: number) {
  // Every answer waits PAGE_DELAY_MS, so the list is still paging when the server goes.
  const sandbox = await startTestSandbox({ projects: PROJECTS, faults: 'slow=1', slowMs: PAGE_DELAY_MS });
  const child = spawnSvc(['projects', 'list', '--all', '-o', format], { env: sandboxEnv(sandbox) });
  let received = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 0x0a) received++;
  });
  // With -o json nothing is printed before the end, so wait for requests instead.
  await waitFor(() => (format === 'json' ? sandbox.stats().requests.total >= 4 : received >= afterLines), 'the listing to be under way');
  await sandbox.close();
  const result = await child;
  const out = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
  assertNoSecrets(out);
  return out;
}

describe('the server goes away in the middle of a listing', () => {
  it('-o ndjson keeps every record already received, each on a whole line, and exits 1 with one line', async () => {
    const result = await listAndKillServer('ndjson', 300);
    expect(result.exitCode).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l.trim());
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: GET \/projects failed: (connection refused|the server closed the connection|connection reset)/);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const ids = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    // Whole pages, in order, none twice, and not the whole list.
    expect(ids.length % 100).toBe(0);
    expect(ids.length).toBeGreaterThanOrEqual(300);
    expect(ids.length).toBeLessThan(PROJECTS);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => PROJECTS - i));
  });

  it('-o json prints no document at all and exits 1 with one line', async () => {
    const result = await listAndKillServer('json', 0);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((l) => l.trim());
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: GET \/projects failed: /);
  });
});

describe('svc is stopped in the middle of a download', () => {
  const TOKEN = 'drill-download-token-8e1f0a6b2c';
  registerSecrets(TOKEN);
  const SIZE = 64 * 1024 * 1024;

  /** An artifacts endpoint that sends the first MiB of a large archive, then stalls. */
  async function stallingArchive() {
    const server = await startScriptedServer();
    const url = server.add('stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(SIZE) });
      res.write(Buffer.alloc(1024 * 1024, 0x50));
    });
    return { server, url };
  }

  async function downloadAndStop(signal: 'SIGKILL' | 'SIGINT') {
    const { server, url } = await stallingArchive();
    const dir = tempDir('svc-drill-download-');
    const target = join(dir, 'build.zip');
    try {
      const child = spawnSvc(['jobs', 'artifacts', '1', '7', '--out', target], { env: { SVC_URL: url, SVC_TOKEN: TOKEN } });
      // The first MiB is on disk (under whatever name svc writes to while downloading).
      await waitFor(() => readdirSync(dir).some((name) => statSync(join(dir, name)).size >= 1024 * 1024), 'the first MiB on disk');
      child.kill(signal);
      const result = await child;
      const out = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
      assertNoSecrets(out, [TOKEN]);
      return { ...out, dir, target };
    } finally {
      await server.close();
    }
  }

  it('SIGKILL leaves no file under the final name', async () => {
    const result = await downloadAndStop('SIGKILL');
    expect(existsSync(result.target)).toBe(false);
  });

  it('Ctrl-C exits 130 with one line and leaves no file at all', async () => {
    const result = await downloadAndStop('SIGINT');
    expect(result.exitCode).toBe(130);
    const lines = result.stderr.split('\n').filter((l) => l.trim());
    expect(lines, JSON.stringify(result)).toHaveLength(1);
    expect(existsSync(result.target)).toBe(false);
    expect(readdirSync(result.dir)).toEqual([]);
  });
});
