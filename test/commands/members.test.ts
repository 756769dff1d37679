import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, parseNdjson } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });

describe('members list', () => {
  it("lists a group's direct members with their access levels", async () => {
    const result = await suite.run(['members', 'list', '--group', 'acme', '-o', 'ndjson', '--fields', 'username,access_level']);
    expect(result.exitCode).toBe(0);
    expect(parseNdjson(result.stdout)).toEqual([
      { username: 'jdoe', access_level: 40 },
      { username: 'olivia.garcia', access_level: 30 },
      { username: 'sybil.lopez', access_level: 20 },
    ]);
    onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/acme\/members$/);
  });

  it('names the access levels in tables, in TSV and on a terminal; JSON keeps the numbers', async () => {
    const args = ['members', 'list', '--group', 'acme', '--fields', 'username,access_level'];
    const tsv = await suite.run(args);
    expect([tsv.exitCode, tsv.stdout, tsv.stderr]).toEqual([
      0,
      'username\taccess_level\njdoe\tmaintainer\nolivia.garcia\tdeveloper\nsybil.lopez\treporter\n',
      '',
    ]);
    const json = await suite.run([...args, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { username: 'jdoe', access_level: 40 },
      { username: 'olivia.garcia', access_level: 30 },
      { username: 'sybil.lopez', access_level: 20 },
    ]);
    const env = { ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1' };
    const end = await spawnPty(['node', BIN, ...args], { env, columns: 80 }).exit();
    expect([end.exitCode, end.output]).toEqual([
      0,
      'username       access_level\r\njdoe           maintainer\r\nolivia.garcia  developer\r\nsybil.lopez    reporter\r\n',
    ]);
  });

  it('adds the levels inherited through parent groups with --inherited (/members/all)', async () => {
    const direct = await suite.run(['members', 'list', '--group', 'acme/platform', '-o', 'json']);
    expect([direct.exitCode, direct.stdout]).toEqual([0, '[]\n']);
    const all = await suite.run([
      'members',
      'list',
      '--project',
      `acme/platform/${suite.sandbox.state.project(2)!.path}`,
      '--inherited',
      '--query',
      'jdoe',
      '-o',
      'ndjson',
      '--fields',
      'id,access_level',
    ]);
    expect(parseNdjson(all.stdout)).toEqual([{ id: 2, access_level: 40 }]);
    const sent = onlyRequest(suite, 'GET', /^\/api\/v4\/projects\/acme%2Fplatform%2F[a-z0-9-]+\/members\/all$/);
    expect(new URLSearchParams(sent.rawQuery).get('query')).toBe('jdoe');
  });

  it('needs exactly one of --project and --group (exit 2, before any request)', async () => {
    const neither = await suite.run(['members', 'list']);
    expect(neither).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give --project P or --group G\n' });
    expect(suite.requests()).toEqual([]);
    const both = await suite.run(['members', 'list', '--project', '1', '--group', 'acme']);
    expect([both.exitCode, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toBe("svc: error: option '--project <project>' cannot be used with option '--group <group>'\n");
  });

  it('reports an unknown group (exit 5)', async () => {
    const result = await suite.run(['members', 'list', '--group', 'nowhere']);
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /groups/nowhere/members failed: 404 Group Not Found\n' });
  });
});
