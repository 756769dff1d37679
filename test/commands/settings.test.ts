// `svc settings get|set` against the sandbox's PUT /application/settings, which answers as lib/api/settings.rb
// (test/sandbox/conformance/application-settings.test.ts).
import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 3 });
const json = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;
const puts = () => suite.requests().filter((r) => r.method === 'PUT');

describe('settings get', () => {
  it('shows the settings asked for', async () => {
    const r = await suite.run(['settings', 'get', '--fields', 'signup_enabled,default_projects_limit', '-o', 'json']);
    expect(r).toEqual({ exitCode: 0, stdout: json({ signup_enabled: false, default_projects_limit: 100000 }), stderr: '' });
    onlyRequest(suite, 'GET', /^\/api\/v4\/application\/settings$/);
  });

  it('prints a KEY VALUE row per setting on a table and TSV, the whole record as JSON', async () => {
    const record = JSON.parse((await suite.run(['settings', 'get', '-o', 'json'])).stdout) as Record<string, unknown>;
    const tsv = await suite.run(['settings', 'get', '-o', 'tsv']);
    const lines = tsv.stdout.trimEnd().split('\n');
    expect([tsv.exitCode, tsv.stderr, lines.length]).toEqual([0, '', Object.keys(record).length + 1]);
    expect(lines[0]).toBe('key\tvalue');
    expect(lines).toContain('signup_enabled\tfalse');
    expect(lines).toContain('default_projects_limit\t100000');
    expect(lines).toContain('repository_storages_weighted\t{"default":100,"storage2":0}');
    const table = (await suite.run(['settings', 'get'])).stdout.trimEnd().split('\n');
    expect([table.length, table[0], table.includes('signup_enabled\tfalse')]).toEqual([lines.length, 'key\tvalue', true]);
  });

  it('names the role a non-administrator lacks (exit 4)', async () => {
    const r = await suite.run(['settings', 'get'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stderr]).toEqual([4, 'svc: GET /application/settings failed: 403 Forbidden (this needs administrator access)\n']);
  });
});

describe('settings set', () => {
  it('dry run: checks and shows before → wanted, sends no PUT', async () => {
    const r = await suite.run(['settings', 'set', 'signup_enabled=true', 'default_projects_limit=20', '--dry-run']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'signup_enabled: false → true (dry run)\ndefault_projects_limit: 100000 → 20 (dry run)\n',
    });
    expect(puts()).toEqual([]);
  });

  it('dry run: shows a hash merged into the current one, as the real run would', async () => {
    const r = await suite.run(['settings', 'set', 'repository_storages_weighted={"storage2":50}', '--dry-run']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'repository_storages_weighted: {"default":100,"storage2":0} → {"default":100,"storage2":50} (dry run)\n',
    });
    expect(puts()).toEqual([]);
  });

  it('sends the typed values, says before → after of each, prints the new settings', async () => {
    const r = await suite.run([
      'settings',
      'set',
      'signup_enabled=true',
      'default_projects_limit=20',
      'repository_storages_weighted={"default":60}',
      '-o',
      'json',
      '--fields',
      'signup_enabled,default_projects_limit,repository_storages_weighted',
    ]);
    expect(r).toEqual({
      exitCode: 0,
      stdout: json({ signup_enabled: true, default_projects_limit: 20, repository_storages_weighted: { default: 60, storage2: 0 } }),
      stderr:
        'signup_enabled: false → true\ndefault_projects_limit: 100000 → 20\nrepository_storages_weighted: {"default":100,"storage2":0} → {"default":60,"storage2":0}\n',
    });
    expect(JSON.parse(onlyRequest(suite, 'PUT', /^\/api\/v4\/application\/settings$/).body)).toEqual({
      signup_enabled: true,
      default_projects_limit: 20,
      repository_storages_weighted: { default: 60 },
    });
  });

  it('prints the changed keys as KEY VALUE rows on TSV, nothing with -q', async () => {
    const r = await suite.run(['settings', 'set', 'default_projects_limit=30', 'signup_enabled=false', '-o', 'tsv']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: 'key\tvalue\ndefault_projects_limit\t30\nsignup_enabled\tfalse\n',
      stderr: 'default_projects_limit: 20 → 30\nsignup_enabled: true → false\n',
    });
    const quiet = await suite.run(['settings', 'set', 'default_projects_limit=40', '-q']);
    expect(quiet).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('refuses before any PUT: a value of the wrong type, an unknown key, a read-only one, a bare word (exit 2)', async () => {
    const cases: Array<[string, string]> = [
      ['signup_enabled=maybe', 'svc: signup_enabled=maybe: signup_enabled takes true or false\n'],
      ['default_projects_limit=1.5', 'svc: default_projects_limit=1.5: default_projects_limit takes a whole number\n'],
      ['no_such_setting=1', "svc: unknown setting 'no_such_setting' (svc settings get lists the instance's settings)\n"],
      ['id=2', 'svc: id is read-only\n'],
    ];
    for (const [arg, stderr] of cases) {
      const r = await suite.run(['settings', 'set', arg]);
      expect(r).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(puts()).toEqual([]);
    }
    const bare = await suite.run(['settings', 'set', 'signup_enabled']);
    expect([bare.exitCode, bare.stderr]).toEqual([2, "svc: 'signup_enabled': give each setting as KEY=VALUE\n"]);
    expect(suite.requests()).toEqual([]);
  });

  it("reports the service's refusal of a value it does not allow (exit 6), changing nothing", async () => {
    const r = await suite.run(['settings', 'set', 'default_project_visibility=secret', 'signup_enabled=false']);
    expect(r).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: PUT /application/settings failed: 400 Bad Request: default_project_visibility does not have a valid value\n',
    });
  });

  it('names the role a non-administrator lacks (exit 4), before any PUT', async () => {
    const r = await suite.run(['settings', 'set', 'signup_enabled=false'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stderr]).toEqual([4, 'svc: GET /application/settings failed: 403 Forbidden (this needs administrator access)\n']);
    expect(puts()).toEqual([]);
  });
});
