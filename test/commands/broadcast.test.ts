// `svc broadcast` is one declaration (src/commands/broadcast/index.ts) over the sandbox's broadcast
// messages, which answer as lib/api/admin/broadcast_messages.rb (test/sandbox/conformance/broadcast-messages.test.ts).
import { describe, expect, it } from 'vitest';
import { parseNdjson } from '../support/harness.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 3 });
const json = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;
const writes = () => suite.requests().filter((r) => r.method !== 'GET');

describe('svc broadcast', () => {
  it('creates a message with the service keys, roles by name, and says whether it shows now', async () => {
    const r = await suite.run([
      'broadcast',
      'create',
      '--message',
      'Rotate your tokens',
      '--type',
      'notification',
      '--target-access-levels',
      'maintainer,owner',
      '--ends-at',
      '2099-01-01T00:00:00Z',
      '--dismissable',
      '-o',
      'json',
      '--fields',
      'id,broadcast_type,target_access_levels,dismissable,active',
    ]);
    expect(r).toEqual({
      exitCode: 0,
      stdout: json({ id: 1, broadcast_type: 'notification', target_access_levels: [40, 50], dismissable: true, active: true }),
      stderr: 'created broadcast message 1 (showing now)\n',
    });
    expect(JSON.parse(onlyRequest(suite, 'POST', /^\/api\/v4\/broadcast_messages$/).body)).toEqual({
      message: 'Rotate your tokens',
      broadcast_type: 'notification',
      target_access_levels: [40, 50],
      ends_at: '2099-01-01T00:00:00Z',
      dismissable: true,
    });
  });

  it('lists newest first and shows one, without needing an administrator', async () => {
    await suite.run(['broadcast', 'create', '--message', 'Later', '--starts-at', '2099-01-01', '--ends-at', '2099-01-02']);
    const list = await suite.run(['broadcast', 'list', '-o', 'ndjson', '--fields', 'id,active'], { token: suite.sandbox.tokens.user });
    expect([list.exitCode, parseNdjson(list.stdout)]).toEqual([
      0,
      [
        { id: 2, active: false },
        { id: 1, active: true },
      ],
    ]);
    const one = await suite.run(['broadcast', 'get', '2', '-o', 'json', '--fields', 'message'], { token: suite.sandbox.tokens.user });
    expect(one.stdout).toBe(json({ message: 'Later' }));
  });

  it('updates and deletes; the delete asks first', async () => {
    const updated = await suite.run(['broadcast', 'update', '2', '--theme', 'red', '-o', 'json', '--fields', 'theme']);
    expect([updated.exitCode, updated.stdout]).toEqual([0, json({ theme: 'red' })]);
    const unasked = await suite.run(['broadcast', 'delete', '2']);
    expect(unasked.exitCode).toBe(2);
    expect(writes()).toEqual([]);
    const deleted = await suite.run(['broadcast', 'delete', '2', '--yes']);
    expect(deleted.exitCode).toBe(0);
    onlyRequest(suite, 'DELETE', /^\/api\/v4\/broadcast_messages\/2$/);
  });

  it('refuses bad input before sending (exit 2) and names the role a non-administrator lacks (exit 4)', async () => {
    const level = await suite.run(['broadcast', 'create', '--message', 'x', '--target-access-levels', 'planner-ish']);
    expect(level.exitCode).toBe(2);
    const time = await suite.run(['broadcast', 'create', '--message', 'x', '--ends-at', 'tomorrow']);
    expect(time.exitCode).toBe(2);
    expect(suite.requests()).toEqual([]);
    const user = await suite.run(['broadcast', 'create', '--message', 'x'], { token: suite.sandbox.tokens.user });
    expect([user.exitCode, user.stderr]).toEqual([
      4,
      'svc: POST /broadcast_messages failed: 403 Forbidden (this needs administrator access)\n',
    ]);
  });

  it("reports the model's refusal of a colour (exit 6)", async () => {
    const r = await suite.run(['broadcast', 'create', '--message', 'x', '--color', 'red']);
    expect(r).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /broadcast_messages failed: 400 Bad Request: color: must be a valid color code\n',
    });
  });
});
