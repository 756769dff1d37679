import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 2 });
const dir = tempDir();
const contentFile = join(dir, 'nginx.conf');
writeFileSync(contentFile, 'server { listen 80; }\n');
const emptyFile = join(dir, 'empty.txt');
writeFileSync(emptyFile, '');

describe('snippets create', () => {
  it('creates from --content, --content-file and stdin', async () => {
    const inline = await suite.run([
      'snippets',
      'create',
      '--title',
      'hello',
      '--file-name',
      'a.txt',
      '--content',
      'hi there',
      '--visibility',
      'internal',
      '-o',
      'json',
    ]);
    expect(inline.exitCode).toBe(0);
    expect(JSON.parse(inline.stdout)).toMatchObject({ title: 'hello', file_name: 'a.txt', visibility: 'internal' });
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/snippets$/).bodyJson).toEqual({
      title: 'hello',
      file_name: 'a.txt',
      content: 'hi there',
      visibility: 'internal',
    });

    const fromFile = await suite.run(['snippets', 'create', '--title', 'conf', '--file-name', 'nginx.conf', '--content-file', contentFile]);
    expect(fromFile.exitCode).toBe(0);
    expect(fromFile.stdout.split('\n')[0]).toBe('id\ttitle\tfile_name\tvisibility\tweb_url');
    expect(onlyRequest(suite, 'POST', /snippets/).bodyJson).toMatchObject({ content: 'server { listen 80; }\n' });

    const fromStdin = await suite.run(['snippets', 'create', '--title', 'piped', '--file-name', 'p.txt', '-o', 'ndjson'], {
      input: 'from a pipe\n',
    });
    expect(fromStdin.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /snippets/).bodyJson).toMatchObject({ content: 'from a pipe\n' });
  });

  it('exits 6 with the message when flagged as spam without a CAPTCHA service', async () => {
    const result = await suite.run(['snippets', 'create', '--title', 'deal', '--file-name', 'a.txt', '--content', 'cheap pills here']);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'svc: POST /snippets failed: 400 Bad Request: Your snippet has been recognized as spam and has been discarded.\n',
    );
  });

  it('refuses conflicting or missing content and half a CAPTCHA answer before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['--content', 'a', '--content-file', contentFile], 'svc: give either --content or --content-file, not both\n'],
      [['--content-file', join(dir, 'missing.txt')], `svc: --content-file ${join(dir, 'missing.txt')}: no such file\n`],
      [['--content', 'a', '--captcha-response', 'x'], 'svc: --captcha-response and --spam-log-id go together\n'],
      [
        ['--content', 'a', '--spam-log-id', 'abc'],
        "svc: error: option '--spam-log-id <id>' argument 'abc' is invalid. --spam-log-id must be a whole number\n",
      ],
      [['--content', ''], 'svc: --content is empty\n'],
      [['--content', ' \n'], 'svc: --content is empty\n'],
      [['--content-file', emptyFile], `svc: --content-file ${emptyFile} is empty\n`],
      [[], 'svc: nothing on stdin; no content: give --content, --content-file, or pipe it on stdin\n'],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['snippets', 'create', '--title', 't', '--file-name', 'f', ...args], { input: '' });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(message);
      expect(suite.requests()).toHaveLength(0);
    }
  });

  it('exits 4 for a read-only token and 3 for a bad one', async () => {
    const readOnly = await suite.run(['snippets', 'create', '--title', 't', '--file-name', 'f', '--content', 'c'], {
      token: suite.sandbox.tokens.readApi,
    });
    expect(readOnly.exitCode).toBe(4);
    const bad = await suite.run(['snippets', 'create', '--title', 't', '--file-name', 'f', '--content', 'c'], { token: 'not-valid-token' });
    expect(bad.exitCode).toBe(3);
  });
});

describe('snippets create with a CAPTCHA service', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ projects: 2, captcha: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('prints the site key, the spam log id and the command to resubmit (exit 9); that command succeeds', async () => {
    const env = sandboxEnv(sandbox);
    const flagged = await svc(
      ['snippets', 'create', '--title', "Bob's deal", '--file-name', 'deal.txt', '--content', 'cheap pills', '--visibility', 'public'],
      { env },
    );
    expect(flagged.exitCode).toBe(9);
    expect(flagged.stdout).toBe('');
    const spamLogId = /spam log id (\d+)/.exec(flagged.stderr)![1]!;
    expect(flagged.stderr).toContain('site key 6LeSandboxSiteKey-0000000000000000000000');
    const command = `svc snippets create --title 'Bob'\\''s deal' --file-name deal.txt --content 'cheap pills' --visibility public --captcha-response RESPONSE --spam-log-id ${spamLogId}`;
    expect(flagged.stderr).toContain(`\n  ${command}\n`);
    expect(flagged.stderr.trimEnd().split('\n').pop()).toBe(
      `svc: CAPTCHA required (spam log id ${spamLogId}, site key 6LeSandboxSiteKey-0000000000000000000000)`,
    );

    sandbox.clearRequests();
    const resubmitted = await svc(
      [
        'snippets',
        'create',
        '--title',
        "Bob's deal",
        '--file-name',
        'deal.txt',
        '--content',
        'cheap pills',
        '--visibility',
        'public',
        '--captcha-response',
        '03AGdB-solved',
        '--spam-log-id',
        spamLogId,
        '-o',
        'json',
      ],
      { env },
    );
    expect(resubmitted.exitCode).toBe(0);
    expect(JSON.parse(resubmitted.stdout)).toMatchObject({ title: "Bob's deal" });
    const [request] = sandbox.requests();
    expect(request!.headers['x-service-captcha-response']).toBe('03AGdB-solved');
    expect(request!.headers['x-service-spam-log-id']).toBe(spamLogId);

    const reused = await svc(
      [
        'snippets',
        'create',
        '--title',
        'again',
        '--file-name',
        'a',
        '--content',
        'cheap pills',
        '--captcha-response',
        'x',
        '--spam-log-id',
        spamLogId,
      ],
      { env },
    );
    expect(reused.exitCode).toBe(9);
  });

  it('tells a stdin user to pipe the same content again', async () => {
    const flagged = await svc(['snippets', 'create', '--title', 't', '--file-name', 'f'], {
      env: sandboxEnv(sandbox),
      input: 'cheap pills',
    });
    expect(flagged.exitCode).toBe(9);
    expect(flagged.stderr).toMatch(
      /svc snippets create --title t --file-name f --captcha-response RESPONSE --spam-log-id \d+ < \(the same content\)/,
    );
  });
});

describe('snippets list, get and delete (declared, #11)', () => {
  it('lists your own snippets, or every public one, gets one and deletes it', async () => {
    const mine = await suite.run(
      ['snippets', 'create', '--title', 'to delete', '--file-name', 'd.txt', '--content', 'x', '--visibility', 'public', '-o', 'json'],
      {
        token: suite.sandbox.tokens.user,
      },
    );
    const id = (JSON.parse(mine.stdout) as { id: number }).id;
    const own = await suite.run(['snippets', 'list', '--all', '-o', 'json', '--fields', 'id,author.username'], {
      token: suite.sandbox.tokens.user,
    });
    expect(own.exitCode).toBe(0);
    const ownRecords = JSON.parse(own.stdout) as Array<{ id: number; author: { username: string } }>;
    expect(ownRecords.map((s) => s.author.username)).toEqual(ownRecords.map(() => 'jdoe'));
    expect(ownRecords.map((s) => s.id)).toContain(id);
    expect(suite.requests()[0]!.rawPath).toBe('/api/v4/snippets');

    const open = await suite.run(['snippets', 'list', '--public', '--limit', '5', '--fields', 'id,visibility', '-o', 'ndjson']);
    expect(open.exitCode).toBe(0);
    expect(suite.requests()[0]!.rawPath).toBe('/api/v4/snippets/public');
    for (const line of open.stdout.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ visibility: 'public' });

    const one = await suite.run(['snippets', 'get', String(id), '-o', 'json', '--fields', 'id,title']);
    expect(one.exitCode).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ id, title: 'to delete' });

    const deleted = await suite.run(['snippets', 'delete', String(id), '--yes'], { token: suite.sandbox.tokens.user });
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toBe(`deleted snippet ${id}\n`);
    expect(onlyRequest(suite, 'DELETE', /snippets/).rawPath).toBe(`/api/v4/snippets/${id}`);

    const gone = await suite.run(['snippets', 'get', String(id)]);
    expect(gone.exitCode).toBe(5);
    expect(gone.stderr).toBe(`svc: GET /snippets/${id} failed: 404 Snippet Not Found\n`);
  });

  it("refuses to delete another user's snippet as the service does: not found among the caller's own (exit 5)", async () => {
    const theirs = await suite.run([
      'snippets',
      'create',
      '--title',
      'admin owns',
      '--file-name',
      'a.txt',
      '--content',
      'x',
      '--visibility',
      'public',
      '-o',
      'json',
    ]);
    const id = (JSON.parse(theirs.stdout) as { id: number }).id;
    const refused = await suite.run(['snippets', 'delete', String(id), '--yes'], { token: suite.sandbox.tokens.user });
    expect([refused.exitCode, refused.stderr]).toEqual([5, `svc: DELETE /snippets/${id} failed: 404 Snippet Not Found\n`]);
  });
});
