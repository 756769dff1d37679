import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { useSandbox } from './support.js';

// `svc hooks` is one declaration (src/commands/hooks/index.ts) and a hand-written `test`, over the
// sandbox's webhooks, which answer as the service's project_hooks.rb, group_hooks.rb and system_hooks.rb
// (test/sandbox/conformance/hooks.test.ts). The receiver here is on loopback, the one place the sandbox delivers to.
describe('svc hooks', () => {
  // The back-off that list shows is timed on the sandbox's clock: held still here.
  const clock = new TestClock();
  const suite = useSandbox({ projects: 5, clock: clock.now });
  const tokens: string[] = [];
  let receiver: Server;
  let base = '';
  let status = 200;
  let refusal = 'no thanks';
  const dir = mkdtempSync(join(tmpdir(), 'svc-hooks-'));
  const secretFile = join(dir, 'hook.secret');
  writeFileSync(secretFile, 'hook-secret-9f8e\n');

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      tokens.push(String(req.headers['x-gitlab-token']));
      req.resume();
      req.on('end', () => res.writeHead(status).end(status === 200 ? '' : refusal));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('creates a hook with events on and off and a secret from a file, and never prints the secret or url credentials', async () => {
    const created = await suite.run([
      'hooks',
      'create',
      '--project',
      '1',
      '--hook-url',
      `http://deploy:pa55word@127.0.0.1:1/in?token=abc123&x=1`,
      '--on',
      'merge-requests,issues',
      '--off',
      'push',
      '--secret-token-file',
      secretFile,
      '-o',
      'json',
    ]);
    expect(created.exitCode).toBe(0);
    const record = JSON.parse(created.stdout);
    expect(created.stderr).toBe(`created hook ${record.id}\n`);
    expect(record).toMatchObject({
      url: 'http://[redacted]@127.0.0.1:1/in?token=[redacted]&x=1',
      push_events: false,
      merge_requests_events: true,
      issues_events: true,
    });
    const sent = suite.requests()[0]!;
    expect([sent.method, sent.rawPath]).toEqual(['POST', '/api/v4/projects/1/hooks']);
    expect(sent.bodyJson).toEqual({
      url: 'http://deploy:pa55word@127.0.0.1:1/in?token=abc123&x=1',
      merge_requests_events: true,
      issues_events: true,
      push_events: false,
      token: 'hook-secret-9f8e',
    });
    const listed = await suite.run(['hooks', 'list', '--project', '1']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).not.toMatch(/pa55word|abc123|hook-secret/);
    expect(listed.stdout).toContain('http://[redacted]@127.0.0.1:1/in?token=[redacted]&x=1');
    const got = await suite.run(['hooks', 'get', String(record.id), '--project', '1', '-o', 'json']);
    expect(got.stdout).not.toMatch(/pa55word|abc123|hook-secret/);
  });

  it('tests a hook: the receiver gets the secret; a refusal is exit 6 with its answer, and list shows the back-off', async () => {
    const created = await suite.run([
      'hooks',
      'create',
      '--project',
      '2',
      '--hook-url',
      `${base}/a`,
      '--secret-token-file',
      secretFile,
      '-q',
    ]);
    expect(created).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const id = String((await suite.run(['hooks', 'list', '--project', '2', '-o', 'json'])).stdout.match(/"id": ?(\d+)/)![1]);
    tokens.length = 0;
    const ok = await suite.run(['hooks', 'test', id, 'push', '--project', '2']);
    expect(ok).toEqual({ exitCode: 0, stdout: '', stderr: `hook ${id} took the push sample (the receiver answered 2xx)\n` });
    expect(tokens).toEqual(['hook-secret-9f8e']);
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['POST', `/api/v4/projects/2/hooks/${id}/test/push_events`]]);
    status = 503;
    for (let i = 0; i < 4; i++) {
      const refused = await suite.run(['hooks', 'test', id, 'tag_push', '--project', '2']);
      expect(refused).toEqual({
        exitCode: 6,
        stdout: '',
        stderr: `svc: POST /projects/2/hooks/${id}/test/tag_push_events failed: 422 Unprocessable Entity: no thanks\n`,
      });
    }
    status = 200;
    const listed = await suite.run(['hooks', 'list', '--project', '2', '-o', 'tsv', '--fields', 'id,alert_status']);
    expect(listed.stdout).toBe(`id\talert_status\n${id}\ttemporarily_disabled\n`);
    const events = await suite.run(['hooks', 'events', id, '--project', '2', '-o', 'tsv', '--fields', 'trigger,response_status']);
    expect(events.stdout).toBe('trigger\tresponse_status\n' + 'tag_push_hooks\t503\n'.repeat(4) + 'push_hooks\t200\n');
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([`/api/v4/projects/2/hooks/${id}/events?per_page=20`]);
  });

  it('system hooks: an administrator tests one without an event and gets the sample', async () => {
    const created = await suite.run([
      'hooks',
      'create',
      '--system',
      '--hook-url',
      `${base}/sys`,
      '--on',
      'repository-update',
      '-o',
      'json',
    ]);
    const id = JSON.parse(created.stdout).id as number;
    const tested = await suite.run(['hooks', 'test', String(id), '--system', '-o', 'json', '--fields', 'event_name']);
    expect(tested.exitCode).toBe(0);
    expect(JSON.parse(tested.stdout)).toEqual({ event_name: 'project_create' });
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['POST', `/api/v4/hooks/${id}`]]);
    // The sample is the answer, with no columns to show: without -o, stdout stays empty.
    expect(await suite.run(['hooks', 'test', String(id), '--system'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `sent the sample system event to hook ${id} (the service does not say how the receiver answered: see its logs)\n`,
    });
    const refused = await suite.run(['hooks', 'list', '--system'], { token: suite.sandbox.tokens.user });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /hooks failed: 403 Forbidden (this needs administrator access)\n',
    });
    const notTested = await suite.run(['hooks', 'test', String(id), '--system'], { token: suite.sandbox.tokens.user });
    expect(notTested.stderr).toBe(`svc: POST /hooks/${id} failed: 403 Forbidden (this needs administrator access)\n`);
  });

  it("prints a receiver's HTML error page as one line naming the page, and escapes control characters", async () => {
    const created = await suite.run(['hooks', 'create', '--project', '3', '--hook-url', `${base}/html`, '-o', 'json', '--fields', 'id']);
    const id = String(JSON.parse(created.stdout).id);
    status = 502;
    refusal = '<!DOCTYPE html>\n<html><head><title>502 Bad\n  Gateway</title></head>\n<body><h1>Bad Gateway</h1>\n</body></html>\n';
    const page = await suite.run(['hooks', 'test', id, 'push', '--project', '3']);
    expect(page).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: `svc: POST /projects/3/hooks/${id}/test/push_events failed: 422 Unprocessable Entity: an HTML page ("502 Bad Gateway")\n`,
    });
    refusal = 'busy\x1b[2J\r\n\x07try later';
    const text = await suite.run(['hooks', 'test', id, 'push', '--project', '3']);
    expect(text.stderr).toBe(
      `svc: POST /projects/3/hooks/${id}/test/push_events failed: 422 Unprocessable Entity: busy\\e[2J\\r\\n\\x07try later\n`,
    );
    status = 200;
    refusal = 'no thanks';
  });

  it('refuses by role: a group hook needs an owner', async () => {
    const refused = await suite.run(['hooks', 'create', '--group', 'acme', '--hook-url', `${base}/g`], {
      token: suite.sandbox.tokens.user,
    });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: POST /groups/acme/hooks failed: 403 Forbidden (this needs the project maintainer or group owner role or administrator access)\n',
    });
  });

  it('refuses before any request: no owner, an event the owner has not, an event for a system hook, an empty update, a secret file that holds no one-line secret', async () => {
    const emptySecret = join(dir, 'empty.secret');
    writeFileSync(emptySecret, '');
    const binarySecret = join(dir, 'binary.secret');
    writeFileSync(binarySecret, Buffer.from([0x73, 0xff, 0xfe, 0x0a]));
    const twoLineSecret = join(dir, 'two-lines.secret');
    writeFileSync(twoLineSecret, 'first\nsecond\n');
    const cases: Array<[string[], string]> = [
      [['hooks', 'list'], 'svc: give --project P, --group G or --system\n'],
      [
        ['hooks', 'create', '--project', '1', '--hook-url', 'https://x.example', '--on', 'member'],
        "svc: unknown event 'member' for project hooks: expected one of push, tag-push, merge-requests, issues, confidential-issues, note, confidential-note, pipeline, wiki-page, deployment, feature-flag, job, releases, milestone, emoji, resource-access-token\n",
      ],
      [['hooks', 'update', '1', '--project', '1', '--on', 'push', '--off', 'push'], 'svc: --on and --off both name push\n'],
      [['hooks', 'test', '1', 'push', '--system'], 'svc: a system hook is tested without an event: drop the event\n'],
      [['hooks', 'test', '1', '--project', '1'], 'svc: name the event to send, e.g. push\n'],
      [
        ['hooks', 'update', '1', '--project', '1'],
        'svc: give at least one of --hook-url, --name, --description, --on, --off, --secret-token-file, --branch-filter, --branch-filter-strategy, --ssl-verification (what to change)\n',
      ],
      [
        ['hooks', 'create', '--project', '1', '--hook-url', 'https://x.example', '--secret-token-file', join(dir, 'missing')],
        `svc: --secret-token-file ${join(dir, 'missing')}: no such file\n`,
      ],
      [
        ['hooks', 'create', '--project', '1', '--hook-url', 'https://x.example', '--secret-token-file', emptySecret],
        `svc: --secret-token-file ${emptySecret} is empty: the hook would get no secret token\n`,
      ],
      [
        ['hooks', 'update', '1', '--project', '1', '--secret-token-file', binarySecret],
        `svc: --secret-token-file ${binarySecret}: not UTF-8 text, so the service would keep another secret than the file holds\n`,
      ],
      [
        ['hooks', 'create', '--project', '1', '--hook-url', 'https://x.example', '--secret-token-file', twoLineSecret],
        `svc: --secret-token-file ${twoLineSecret}: the secret holds a line break or another control character, which the X-Gitlab-Token header cannot carry\n`,
      ],
      [
        ['hooks', 'delete', '1', '--project', '1'],
        'svc: Delete hook 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });

  it('deletes a hook with --yes', async () => {
    const created = await suite.run(['hooks', 'create', '--project', '3', '--hook-url', 'https://hooks.example.com/x', '-o', 'json']);
    const id = JSON.parse(created.stdout).id as number;
    const deleted = await suite.run(['hooks', 'delete', String(id), '--project', '3', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: `deleted hook ${id}\n` });
    const gone = await suite.run(['hooks', 'get', String(id), '--project', '3']);
    expect(gone).toEqual({ exitCode: 5, stdout: '', stderr: `svc: GET /projects/3/hooks/${id} failed: 404 Not found\n` });
  });
});
