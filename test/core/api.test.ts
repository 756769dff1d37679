import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { cleanupTempDirs, parseNdjson, spawnSvc, svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { FIFO_OPEN_WAITS, waitForKernelWait } from '../support/proc.js';

let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 30 });
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});
beforeEach(() => sandbox.clearRequests());

const api = (args: string[], extra: { input?: string } = {}) => svc(['api', ...args], { env, ...extra });
const apiRequests = () => sandbox.requests().filter((r) => r.origin === 'api');

describe('svc api: requests', () => {
  it('GETs a path relative to /api/v4 with or without a leading slash, sent as given', async () => {
    const encoded = encodeURIComponent(sandbox.state.project(1)!.fullPath);
    for (const path of ['user', '/user', `projects/${encoded}`]) {
      const result = await api([path]);
      expect(result.exitCode, path).toBe(0);
      expect(JSON.parse(result.stdout).id).toBe(1);
    }
    expect(apiRequests().map((r) => r.rawPath)).toEqual(['/api/v4/user', '/api/v4/user', `/api/v4/projects/${encoded}`]);
    expect(apiRequests()[0]?.headers['user-agent']).toMatch(/^svc\/\d+\.\d+\.\d+/);
  });

  it('puts GET fields (-X GET; fields alone mean POST, as in gh) in the query string with arrays, hashes and arrays of hashes', async () => {
    const result = await api([
      'projects',
      '-X',
      'GET',
      '-f',
      'search=a+b',
      '-F',
      'per_page=2',
      '-f',
      'topic[]=x',
      '-f',
      'topic[]=y',
      '-f',
      'custom[k]=v',
      '-f',
      'vars[][key]=A',
      '-f',
      'vars[][value]=1',
      '-f',
      'vars[][key]=B',
      '-f',
      'vars[][value]=2',
    ]);
    expect(result.exitCode).toBe(0);
    expect(apiRequests()[0]?.method).toBe('GET');
    expect(apiRequests()[0]?.rawQuery).toBe(
      // -f fields come before -F fields.
      'search=a%2Bb&topic[]=x&topic[]=y&custom[k]=v&vars[0][key]=A&vars[0][value]=1&vars[1][key]=B&vars[1][value]=2&per_page=2',
    );
  });

  it('sends other methods a JSON body built from the bracket keys, -F typed, @file and @-', async () => {
    const file = join(tempDir(), 'description.txt');
    writeFileSync(file, 'from a file\n');
    const result = await api(
      [
        'projects/1/pipeline',
        '-X',
        'POST',
        '-f',
        'ref=main',
        '-f',
        'variables[][key]=A',
        '-f',
        'variables[][value]=1',
        '-f',
        'variables[][key]=B',
        '-f',
        'variables[][value]=two',
        '-F',
        'n=5',
        '-F',
        'flag=true',
        '-F',
        'off=false',
        '-F',
        'nothing=null',
        '-F',
        `text=@${file}`,
        '-F',
        'piped=@-',
        '-f',
        'raw=true',
      ],
      { input: 'from stdin' },
    );
    expect(result.exitCode).toBe(0);
    const seen = apiRequests()[0]!;
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.rawQuery).toBe('');
    expect(seen.bodyJson).toEqual({
      ref: 'main',
      variables: [
        { key: 'A', value: '1' },
        { key: 'B', value: 'two' },
      ],
      n: 5,
      flag: true,
      off: false,
      nothing: null,
      text: 'from a file\n',
      piped: 'from stdin',
      raw: 'true',
    });
    expect(JSON.parse(result.stdout).status).toBe('created');
  });

  it('defaults to POST when fields are given, sends --input raw with fields in the query, and extra headers', async () => {
    const body = join(tempDir(), 'body.json');
    writeFileSync(body, '{"name":"from-input","description":"raw body"}');
    const result = await api(['projects', '--input', body, '-f', 'x=1', '-H', 'X-Extra: yes']);
    expect(result.exitCode).toBe(0);
    const seen = apiRequests()[0]!;
    expect([seen.method, seen.rawQuery, seen.body, seen.headers['x-extra']]).toEqual([
      'POST',
      'x=1',
      '{"name":"from-input","description":"raw body"}',
      'yes',
    ]);
    const stdin = await api(['projects', '--input', '-', '-H', 'Content-Type: application/x-www-form-urlencoded'], {
      input: 'name=from-stdin',
    });
    expect(stdin.exitCode).toBe(0);
    expect(apiRequests()[1]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(JSON.parse(stdin.stdout).name).toBe('from-stdin');
  });

  it('prints non-JSON responses raw', async () => {
    const result = await api(['projects/1/repository/files/README.md/raw?ref=main']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^# .+\n\n/);
    expect(result.stdout).toContain('See docs/guide/intro.md.');
  });

  it('explains an unmatched route with the %2F hint (exit 5)', async () => {
    const result = await api([`projects/${sandbox.state.project(1)!.fullPath}/repository/files/README.md`]);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/404.*%2F/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('refuses bad input in one line with exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['user', '-f', 'novalue'], /expected key=value/],
      [['user', '-f', 'a[b=1'], /invalid parameter name/],
      [['user', '-H', 'nocolon'], /Name: value/],
      [['user', '-F', 'x=@/no/such/file'], /^svc: -F \/no\/such\/file: no such file\n$/],
      [['user', '--input', '/no/such/file'], /^svc: --input \/no\/such\/file: no such file\n$/],
      [['projects', '--paginate', '-X', 'POST'], /GET requests only/],
      [['projects', '-o', 'tsv'], /needs --fields/],
    ];
    for (const [args, message] of cases) {
      const result = await api(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(apiRequests()).toHaveLength(0);
  });
});

describe('svc api: output', () => {
  it('-i prints the status line and headers to stdout, never a credential header', async () => {
    const result = await api(['-i', 'user']);
    expect(result.exitCode).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head?.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json$/m);
    expect(head).not.toMatch(/^(private-token|authorization|job-token|set-cookie):/im);
    expect(JSON.parse(body!).username).toBe('root');
  });

  it('-i still prints the body of an HTTP error, and the exit code follows the status', async () => {
    const result = await svc(['api', '-i', 'projects/999999'], { env });
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toMatch(/^HTTP\/1.1 404 Not Found\n/);
    expect(result.stdout).toContain('{"message":"404 Project Not Found"}');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--paginate merges every page into one JSON array, or streams ndjson', async () => {
    const merged = await api(['projects', '--paginate', '-f', 'per_page=7', '-f', 'order_by=id', '-f', 'sort=asc']);
    expect(merged.exitCode).toBe(0);
    const ids = (JSON.parse(merged.stdout) as Array<{ id: number }>).map((p) => p.id);
    expect(ids).toHaveLength(sandbox.state.projectCount());
    expect(new Set(ids).size).toBe(ids.length);
    expect(apiRequests()).toHaveLength(Math.ceil(ids.length / 7));
    expect(apiRequests().every((r) => r.method === 'GET')).toBe(true);

    const ndjson = await api(['projects', '--paginate', '-F', 'per_page=10', '-o', 'ndjson', '--fields', 'id,namespace.full_path']);
    const rows = parseNdjson(ndjson.stdout) as Array<{ id: number; namespace: { full_path: string } }>;
    expect(rows).toHaveLength(ids.length);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'namespace']);
    expect(typeof rows[0]!.namespace.full_path).toBe('string');
  });

  it('-o tsv with --fields prints a header and one line per record', async () => {
    const result = await api(['projects?per_page=3', '-o', 'tsv', '--fields', 'id,visibility']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tvisibility');
    expect(lines).toHaveLength(4);
  });

  it('never shows a token from the query string under --debug', async () => {
    const result = await svc(['api', 'user', '-X', 'GET', '-f', `private_token=${sandbox.tokens.admin}`, '--debug'], {
      env: { SVC_URL: sandbox.url },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/→ GET .*\/api\/v4\/user\?private_token=\[redacted\] \(attempt 1\/5\)/);
    expect(result.stderr).toMatch(/← 200 in \d+ ms \(attempt 1\)/);
  });
});

describe('svc api: hostile answers and local input (#9, #10)', () => {
  it('says that fields made a GET a POST when the answer is 405', async () => {
    const server = await startScriptedServer();
    try {
      const url = server.add('only-get', (req, res) => {
        if (req.method === 'GET') json(200, { ok: true })(req, res, { base: '', other: '' });
        else json(405, { message: '405 Method Not Allowed' })(req, res, { base: '', other: '' });
      });
      const result = await svc(['api', 'projects/1/repository/tree', '-f', 'ref=main'], {
        env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' },
      });
      expect(result.exitCode).toBe(6);
      expect(result.stderr).toBe(
        'svc: POST /projects/1/repository/tree failed: 405 Method Not Allowed (fields make the request a POST; add -X GET to send them as the query of a GET)\n',
      );
      const asGet = await svc(['api', 'projects/1/repository/tree', '-X', 'GET', '-f', 'ref=main'], {
        env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' },
      });
      expect(asGet.exitCode).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('prints nothing, exit 1, for a JSON answer cut short', async () => {
    const server = await startScriptedServer();
    try {
      const url = server.add('cut', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id": 1}, {"id": 2');
      });
      const result = await svc(['api', 'projects'], { env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('svc: the answer (200) says it is JSON but is truncated or malformed; nothing printed\n');
    } finally {
      await server.close();
    }
  });

  it('--input from a FIFO nobody writes to ends on Ctrl-C (exit 130)', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'body.fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawnSvc(['api', 'projects', '--input', fifo], { env });
    await waitForKernelWait(child.pid!, FIFO_OPEN_WAITS);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toBe(`svc: interrupted while reading ${fifo}\n`);
    expect(apiRequests()).toHaveLength(0);
  });
});
