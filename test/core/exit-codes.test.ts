import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { execa } from 'execa';
import { BIN, assertNoSecrets, cleanupTempDirs, isolatedEnv, spawnSvc, svc } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { startServer } from './servers.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 5, captcha: true });
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

describe('exit codes', () => {
  it('0 on success', async () => {
    const result = await svc(['api', 'user'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('1 for a refused connection and for an answer that is not the expected JSON', async () => {
    const gone = await startServer(() => {});
    await gone.close();
    const refused = await svc(['api', 'user', '--retries', '0'], { env: { SVC_URL: gone.url, SVC_TOKEN: 'x'.repeat(20) } });
    expect(refused.exitCode).toBe(1);
    expect(oneLine(refused.stderr)).toMatch(/^svc: GET \/user failed: connection refused \(ECONNREFUSED\)$/);

    const html = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Sign in</title></html>');
    });
    const notJson = await svc(['projects', 'get', '1'], { env: { SVC_URL: html.url } });
    await html.close();
    expect(notJson.exitCode).toBe(1);
    expect(oneLine(notJson.stderr)).toMatch(/returned text\/html instead of JSON \(an HTML page, probably from a proxy\)/);
  });

  it('2 for bad flags, bad arguments and missing URL', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['api', 'user', '--bogus'], /unknown option '--bogus'/],
      [['projects', 'list', '--limit', 'ten'], /--limit must be a whole number/],
      [['projects', 'list', '-o', 'xml'], /xml/],
      [['nonsense'], /unknown command 'nonsense'/],
      [['api', 'user', '--url', 'ftp://x'], /only http and https/],
    ];
    for (const [args, message] of cases) {
      const result = await svc(args, { env: sandboxEnv(sandbox) });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(oneLine(result.stderr)).toMatch(message);
    }
    const noUrl = await svc(['api', 'user']);
    expect(noUrl.exitCode).toBe(2);
    expect(oneLine(noUrl.stderr)).toMatch(/no service URL/);
  });

  it('3 for a rejected token, 4 for a forbidden request, 5 for not found, 6 for a rejected request', async () => {
    const cases: Array<[string[], string, number, RegExp]> = [
      [['api', 'user'], 'not-a-token-0000000000', 3, /401 Unauthorized/],
      [['api', 'application/settings'], sandbox.tokens.user, 4, /403 Forbidden/],
      [['api', 'projects/999999'], sandbox.tokens.admin, 5, /404 Project Not Found/],
      [['api', 'projects', '-X', 'POST'], sandbox.tokens.admin, 6, /400 Bad Request/],
      [['api', 'projects/1', '-X', 'PATCH'], sandbox.tokens.admin, 6, /405 Not Allowed/],
    ];
    for (const [args, token, code, message] of cases) {
      const result = await svc(args, { env: sandboxEnv(sandbox, token) });
      expect(result.exitCode, args.join(' ')).toBe(code);
      expect(oneLine(result.stderr)).toMatch(message);
    }
  });

  it('7 when still rate limited after the retries', async () => {
    const limited = await startTestSandbox({ projects: 1, faults: '429=1' });
    const result = await svc(['api', 'user', '--retries', '1'], { env: sandboxEnv(limited) });
    await limited.close();
    expect(result.exitCode).toBe(7);
    expect(oneLine(result.stderr)).toMatch(/429 Too Many Requests: Retry later/);
  });

  it('9 when the service asks for a CAPTCHA', async () => {
    const result = await svc(
      ['api', 'snippets', '-f', 'title=offer', '-f', 'file_name=a.txt', '-f', 'content=cheap pills', '-f', 'visibility=private'],
      { env: sandboxEnv(sandbox, sandbox.tokens.user) },
    );
    expect(result.exitCode).toBe(9);
    expect(oneLine(result.stderr)).toMatch(/recognized as spam/);
  });

  it('130 on Ctrl-C while a request is stalled', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const stalled = await startServer(() => arrived());
    const child = spawnSvc(['api', 'user'], { env: { SVC_URL: stalled.url, SVC_TOKEN: 'y'.repeat(20) } });
    await requestArrived;
    child.kill('SIGINT');
    const result = await child;
    await stalled.close();
    expect(result.exitCode).toBe(130);
    expect(oneLine(String(result.stderr))).toBe('svc: interrupted');
    expect(String(result.stdout)).toBe('');
  });
});

describe('output formats', () => {
  it('lists as a TSV table with a header when stdout is not a terminal, and as json, ndjson, tsv with --fields', async () => {
    const env = sandboxEnv(sandbox);
    const table = await svc(['projects', 'list', '--limit', '3'], { env });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\tpath_with_namespace\t/);
    expect(lines).toHaveLength(4);
    expect(table.stdout).not.toMatch(/\u001b\[/);

    const jsonOut = JSON.parse(
      (await svc(['projects', 'list', '--limit', '2', '-o', 'json', '--fields', 'id,namespace.full_path'], { env })).stdout,
    );
    expect(jsonOut).toHaveLength(2);
    expect(Object.keys(jsonOut[0])).toEqual(['id', 'namespace']);
    expect(Object.keys(jsonOut[0].namespace)).toEqual(['full_path']);

    const ndjson = (await svc(['projects', 'list', '--limit', '2', '-o', 'ndjson'], { env })).stdout.trimEnd().split('\n');
    expect(ndjson.map((l) => JSON.parse(l).id)).toHaveLength(2);
    const tsv = await svc(['projects', 'list', '--limit', '2', '-o', 'tsv', '--fields', 'id,namespace.full_path'], { env });
    expect(tsv.stdout.split('\n')[0]).toBe('id\tnamespace.full_path');
  });

  it('draws an aligned table on a terminal, and TSV again with -o tsv', async () => {
    // `script` gives the CLI a pseudo-terminal as stdout.
    const onTerminal = (args: string[]) =>
      execa('script', ['-qec', ['node', BIN, ...args].join(' '), '/dev/null'], {
        env: isolatedEnv({ env: { ...sandboxEnv(sandbox), TERM: 'xterm' } }),
        extendEnv: false,
        reject: false,
      });
    const table = await onTerminal(['projects', 'list', '--limit', '2', '--fields', 'id,visibility']);
    const output = { exitCode: table.exitCode ?? -1, stdout: String(table.stdout), stderr: String(table.stderr) };
    assertNoSecrets(output);
    expect(output.exitCode).toBe(0);
    const lines = output.stdout
      .replace(/\u001b\[[0-9;]*m/g, '')
      .trimEnd()
      .split(/\r?\n/);
    // The pseudo-terminal carries stderr too: an explicit --limit asks for no "more exist" hint.
    expect(lines[0]).toMatch(/^\s*id\s{2,}visibility\s*$/);
    expect(lines).toHaveLength(3);
    expect(output.stdout).not.toContain('\t');
    expect(output.stdout).toMatch(/\u001b\[1m/);
    const tsv = await onTerminal(['projects', 'list', '--limit', '2', '--fields', 'id,visibility', '-o', 'tsv']);
    expect(String(tsv.stdout).split(/\r?\n/)[0]).toBe('id\tvisibility');
  });

  it("--timeout/--retries before a waiting command are per-request; after it they are the wait's", async () => {
    const env = sandboxEnv(sandbox);
    const before = await svc(['--retries', '0', '--timeout', '5', 'pipeline', 'wait', '1', '1', '--interval', '0.05', '--debug'], { env });
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stderr).toMatch(/attempt 1\/1\b/);
    const after = await svc(['pipeline', 'wait', '1', '1', '--timeout', '5', '--interval', '0.05', '--debug'], { env });
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.stderr).toMatch(/attempt 1\/5\b/);
  });

  it('warns once on stderr about a --fields name the records do not have', async () => {
    const env = sandboxEnv(sandbox);
    const typo = await svc(['projects', 'list', '--limit', '3', '--fields', 'id,path_with_namespce', '-o', 'json'], { env });
    expect(typo.exitCode).toBe(0);
    expect((JSON.parse(typo.stdout) as unknown[]).length).toBe(3);
    expect(typo.stderr.match(/no field 'path_with_namespce' in the records/g)).toHaveLength(1);
    const fine = await svc(['projects', 'get', '1', '--fields', 'id,namespace.full_path'], { env });
    expect(fine.stderr).toBe('');
  });

  it('on a terminal with NO_COLOR, a wait reports progress as plain lines instead of a spinner', async () => {
    const created = await svc(['pipeline', 'create', '1', '--ref', 'main', '-o', 'json'], { env: sandboxEnv(sandbox) });
    expect(created.exitCode, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { id: number }).id;
    const run = await execa(
      'script',
      ['-qec', ['node', BIN, 'pipeline', 'wait', '1', String(id), '--interval', '0.05'].join(' '), '/dev/null'],
      {
        env: isolatedEnv({ env: { ...sandboxEnv(sandbox), TERM: 'xterm', NO_COLOR: '1' } }),
        extendEnv: false,
        reject: false,
      },
    );
    const output = String(run.stdout);
    expect(run.exitCode, output).toBe(0);
    expect(output).toMatch(new RegExp(`pipeline ${id}: (running|success)`));
    expect(output).not.toMatch(/\u001b\[\?25l/);
  });

  it('colours only with FORCE_COLOR, and NO_COLOR, CI or --quiet turn it off again', async () => {
    const env = sandboxEnv(sandbox);
    const forced = await svc(['api', 'nope', '--retries', '0'], { env: { ...env, FORCE_COLOR: '1', SVC_DEBUG: '1' } });
    expect(forced.stderr).toMatch(/\u001b\[/);
    for (const extra of [{ NO_COLOR: '1' }, { CI: 'true' }, {}]) {
      const plain = await svc(['api', 'nope', '--retries', '0'], { env: { ...env, SVC_DEBUG: '1', ...extra } });
      expect(plain.stderr).toMatch(/\[debug\]/);
      expect(plain.stderr).not.toMatch(/\u001b\[/);
    }
    const quiet = await svc(['api', 'nope', '--retries', '0', '--quiet'], { env: { ...env, FORCE_COLOR: '1', SVC_DEBUG: '1' } });
    expect(quiet.stderr).not.toMatch(/\u001b\[/);
  });
});
