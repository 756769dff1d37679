import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { BIN, cleanupTempDirs, isolatedEnv, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';

// Records a hostile server could send: a screen clear, an OSC 52 clipboard write, an OSC 8 link,
// a carriage return that would overwrite the line, DEL and the 8-bit CSI.
const HOSTILE = [
  {
    id: 1,
    path_with_namespace: 'evil/\x1b[2Jx',
    name: 'clip\x1b]52;c;cHduZWQ=\x07',
    description: 'line\rFAKE\nnext',
    visibility: 'public',
    last_activity_at: '2026-01-02T03:04:05.000Z',
  },
  {
    id: 2,
    path_with_namespace: 'ok/\x1b]8;;http://x.test/\x1b\\link\x1b]8;;\x1b\\',
    name: 'del\x7f csi\u009b2J',
    description: null,
    visibility: 'private',
    last_activity_at: '2026-01-02T03:04:06.000Z',
  },
];

let server: Awaited<ReturnType<typeof startScriptedServer>>;
let list: string;
let one: string;

beforeAll(async () => {
  server = await startScriptedServer();
  list = server.add('list', json(200, HOSTILE));
  one = server.add('one', json(200, HOSTILE[0]));
});

afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

function onTerminal(url: string, args: string[]) {
  const env = { ...isolatedEnv({ env: { SVC_URL: url, SVC_TOKEN: 'plain-token' } }), TERM: 'xterm-256color', NO_COLOR: '1' };
  return spawnPty(['node', BIN, ...args], { env, columns: 100 }).exit();
}

describe('control characters from the server on a terminal', () => {
  it('are escaped in table cells, one row per record, nothing raw', async () => {
    const end = await onTerminal(list, ['projects', 'list']);
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe(
      'id  path_with_namespace                      visibility  last_activity_at\r\n' +
        '1   evil/\\e[2Jx                              public      2026-01-02T03:04:05.000Z\r\n' +
        '2   ok/\\e]8;;http://x.test/\\e\\link\\e]8;;\\e\\  private     2026-01-02T03:04:06.000Z\r\n',
    );
  });

  it('are escaped in key/value records', async () => {
    const end = await onTerminal(one, ['projects', 'get', '1']);
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe(
      [
        'id                   1',
        'path_with_namespace  evil/\\e[2Jx',
        'name                 clip\\e]52;c;cHduZWQ=\\x07',
        'description          line\\rFAKE\\nnext',
        'visibility           public',
        'default_branch       ',
        'repository_storage   ',
        'web_url              ',
        'created_at           ',
        'last_activity_at     2026-01-02T03:04:05.000Z',
        '',
      ].join('\r\n'),
    );
  });
});

describe('commands printed by bulk --dry-run on a terminal', () => {
  it('show control characters from the input as escapes', async () => {
    const input = '{"name":"a\\u001b]52;c;cHduZWQ=\\u0007b\\u001b[2J"}';
    const command = `printf '%s\\n' '${input}' | node ${BIN} bulk --dry-run -- projects get {name} 2>/dev/null`;
    const env = { ...isolatedEnv({ env: { SVC_URL: list, SVC_TOKEN: 'plain-token' } }), TERM: 'xterm-256color' };
    const end = await spawnPty(['sh', '-c', command], { env }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe("svc projects get 'a\\e]52;c;cHduZWQ=\\x07b\\e[2J'\r\n");
  });
});

describe('control characters from the server in a pipe', () => {
  it('are escaped in TSV, backslash included', async () => {
    const result = await svc(['projects', 'list', '-o', 'tsv', '--fields', 'id,name,path_with_namespace'], {
      env: { SVC_URL: list, SVC_TOKEN: 'plain-token' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'id\tname\tpath_with_namespace\n' +
        '1\tclip\\e]52;c;cHduZWQ=\\x07\tevil/\\e[2Jx\n' +
        '2\tdel\\x7f csi\\x9b2J\tok/\\e]8;;http://x.test/\\e\\\\link\\e]8;;\\e\\\\\n',
    );
  });

  it('stay exact in -o json and -o ndjson, with no raw control character', async () => {
    for (const format of ['json', 'ndjson']) {
      const result = await svc(['projects', 'list', '-o', format], { env: { SVC_URL: list, SVC_TOKEN: 'plain-token' } });
      expect(result.exitCode).toBe(0);
      const parsed =
        format === 'json'
          ? JSON.parse(result.stdout)
          : result.stdout
              .trimEnd()
              .split('\n')
              .map((line) => JSON.parse(line));
      expect(parsed).toEqual(HOSTILE);
      expect(result.stdout.match(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g)).toBe(null);
    }
  });
});

describe('control characters from the server in human lines on stderr', () => {
  it('are escaped in the error line, which stays one line', async () => {
    const failing = server.add('failing', json(403, { message: '403 Forbidden\x1b[2J\x1b]52;c;cHduZWQ=\x07\nsecond line' }));
    const result = await svc(['projects', 'get', '1'], { env: { SVC_URL: failing, SVC_TOKEN: 'plain-token' } });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('svc: GET /projects/1 failed: 403 Forbidden\\e[2J\\e]52;c;cHduZWQ=\\x07\\nsecond line\n');
  });

  it('are escaped in progress and information lines', async () => {
    const created = server.add(
      'created',
      json(201, { id: 7, ref: 'main\x1b[2J', status: 'created', web_url: 'http://x.test/p/-/pipelines/7\rFAKE' }),
    );
    const result = await svc(['pipeline', 'create', '1', '--ref', 'main', '-o', 'json', '--fields', 'id'], {
      env: { SVC_URL: created, SVC_TOKEN: 'plain-token' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('created pipeline 7 for main\\e[2J: http://x.test/p/-/pipelines/7\\rFAKE\n');
  });
});

describe('bidirectional controls from the server', () => {
  // A right-to-left override printed raw shows the rest of its line backwards: `gpj.exe` reads `exe.jpg`.
  const LABELS = [{ id: 1, name: 'invoice\u202egpj.exe', color: '#FF0000', description: '\u2067isolate\u2069 \u200fmark', priority: null }];

  it('are shown as \\uHHHH in a table on a terminal, and in the error line', async () => {
    const labels = server.add('bidi-labels', json(200, LABELS));
    const end = await onTerminal(labels, ['labels', 'list', '--project', '1', '--fields', 'id,name,description']);
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe(
      'id  name                  description\r\n' + '1   invoice\\u202egpj.exe  \\u2067isolate\\u2069 \\u200fmark\r\n',
    );
    const missing = server.add('bidi-404', json(404, { message: '404 Label \u202eNot Found' }));
    const failed = await onTerminal(missing, ['labels', 'get', 'x', '--project', '1']);
    expect(failed.exitCode).toBe(5);
    expect(failed.output).toBe('svc: GET /projects/1/labels/x failed: 404 Label \\u202eNot Found\r\n');
  });

  it('are \\u escapes in -o json, the same document, and escaped in TSV', async () => {
    const labels = server.add('bidi-labels-pipe', json(200, LABELS));
    const asJson = await svc(['labels', 'list', '--project', '1', '-o', 'json'], { env: { SVC_URL: labels, SVC_TOKEN: 'plain-token' } });
    expect(asJson.exitCode).toBe(0);
    expect(asJson.stdout).toContain('"name": "invoice\\u202egpj.exe"');
    expect(JSON.parse(asJson.stdout)).toEqual(LABELS);
    const tsv = await svc(['labels', 'list', '--project', '1', '-o', 'tsv', '--fields', 'name'], {
      env: { SVC_URL: labels, SVC_TOKEN: 'plain-token' },
    });
    expect(tsv).toEqual({ exitCode: 0, stdout: 'name\ninvoice\\u202egpj.exe\n', stderr: '' });
  });
});
