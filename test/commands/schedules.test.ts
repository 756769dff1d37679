import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `svc schedules` is one declaration (src/commands/schedules/index.ts) over the sandbox's pipeline
// schedules, which answer as the service's lib/api/ci/pipeline_schedules.rb
// (test/sandbox/conformance/pipeline-schedules.test.ts).
describe('svc schedules', () => {
  const NOW = Date.UTC(2026, 0, 15, 10, 30);
  const suite = useSandbox({ projects: 5, clock: () => NOW });
  const sent = () => suite.requests().map((r) => [r.method, r.rawPath]);

  it('creates, lists by scope, shows, updates, plays and deletes a schedule, saying each on stderr', async () => {
    const created = await suite.run([
      'schedules',
      'create',
      '1',
      '--description',
      'Nightly',
      '--ref',
      'main',
      '--cron',
      '0 2 * * *',
      '-o',
      'json',
    ]);
    expect(created.stderr).toBe('created schedule 1 of project 1, next run 2026-01-16T02:00:00.000Z\n');
    expect(JSON.parse(created.stdout)).toMatchObject({ id: 1, cron: '0 2 * * *', cron_timezone: 'UTC', active: true });
    expect(sent()).toEqual([['POST', '/api/v4/projects/1/pipeline_schedules']]);
    const paused = await suite.run([
      'schedules',
      'create',
      '1',
      '--description',
      'Paused',
      '--ref',
      'main',
      '--cron',
      '0 * * * *',
      '--inactive',
      '--fields',
      'active',
    ]);
    expect(paused).toEqual({
      exitCode: 0,
      stdout: 'active\nfalse\n',
      stderr: 'created schedule 2 of project 1, next run 2026-01-15T11:00:00.000Z\n',
    });

    const inactive = await suite.run(['schedules', 'list', '1', '--scope', 'inactive', '-o', 'json', '--fields', 'id,active']);
    expect(JSON.parse(inactive.stdout)).toEqual([{ id: 2, active: false }]);
    expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      '/api/v4/projects/1/pipeline_schedules?scope=inactive&per_page=100',
    ]);

    const updated = await suite.run([
      'schedules',
      'update',
      '1',
      '2',
      '--active',
      '--cron-timezone',
      'Europe/Berlin',
      '--fields',
      'cron_timezone',
    ]);
    expect(updated).toEqual({
      exitCode: 0,
      stdout: 'cron_timezone\nEurope/Berlin\n',
      stderr: 'updated schedule 2 of project 1: cron_timezone, active\n',
    });
    const off = await suite.run(['schedules', 'update', '1', '2', '--inactive', '-o', 'json', '--fields', 'active']);
    expect([off.stdout, off.stderr]).toEqual(['{\n  "active": false\n}\n', 'updated schedule 2 of project 1: active\n']);

    const played = await suite.run(['schedules', 'play', '1', '1']);
    expect(played).toEqual({ exitCode: 0, stdout: 'message\n201 Created\n', stderr: 'started a pipeline of schedule 1 of project 1\n' });
    expect(sent()).toEqual([['POST', '/api/v4/projects/1/pipeline_schedules/1/play']]);
    const shown = await suite.run(['schedules', 'get', '1', '1', '-o', 'json', '--fields', 'last_pipeline.ref']);
    expect(JSON.parse(shown.stdout)).toEqual({ last_pipeline: { ref: 'main' } });

    const deleted = await suite.run(['schedules', 'delete', '1', '2', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted schedule 2 of project 1\n' });
    const gone = await suite.run(['schedules', 'get', '1', '2']);
    expect(gone).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: GET /projects/1/pipeline_schedules/2 failed: 404 Pipeline Schedule Not Found\n',
    });
  });

  it('sets a variable (adding it, then changing it) and deletes it', async () => {
    const added = await suite.run(['schedules', 'variables', 'set', '1', '1', 'MODE', '--value', 'nightly', '-o', 'json']);
    expect(added.stderr).toBe('set variable MODE of schedule 1\n');
    expect(JSON.parse(added.stdout)).toEqual({ key: 'MODE', value: 'nightly', variable_type: 'env_var' });
    expect(sent()).toEqual([
      ['PUT', '/api/v4/projects/1/pipeline_schedules/1/variables/MODE'],
      ['POST', '/api/v4/projects/1/pipeline_schedules/1/variables'],
    ]);
    const changed = await suite.run(['schedules', 'variables', 'set', '1', '1', 'MODE', '--variable-type', 'file', '-o', 'json']);
    expect(JSON.parse(changed.stdout)).toEqual({ key: 'MODE', value: 'nightly', variable_type: 'file' });
    expect(sent()).toEqual([['PUT', '/api/v4/projects/1/pipeline_schedules/1/variables/MODE']]);
    const deleted = await suite.run(['schedules', 'variables', 'delete', '1', '1', 'MODE']);
    expect(deleted).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'deleted variable MODE of schedule 1\n',
    });
    const missing = await suite.run(['schedules', 'variables', 'delete', '1', '1', 'MODE']);
    expect(missing).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: DELETE /projects/1/pipeline_schedules/1/variables/MODE failed: 404 Pipeline Schedule Variable Not Found\n',
    });
  });

  it('gives the service’s refusals: a cron that is none, a role too low', async () => {
    const cron = await suite.run(['schedules', 'create', '1', '--description', 'x', '--ref', 'main', '--cron', 'every day']);
    expect(cron).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/1/pipeline_schedules failed: 400 Bad Request: cron:  is invalid syntax\n',
    });
    const guest = await suite.run(['schedules', 'take-ownership', '4', '1'], { token: suite.sandbox.tokens.user });
    expect(guest).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: POST /projects/4/pipeline_schedules/1/take_ownership failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });

  it('refuses before any request: an update that changes nothing, --active with --inactive, a delete not confirmed', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['schedules', 'update', '1', '1'],
        'svc: give at least one of --description, --ref, --cron, --cron-timezone, --active, --inactive (what to change)\n',
      ],
      [
        ['schedules', 'update', '1', '1', '--active', '--inactive'],
        "svc: error: option '--inactive' cannot be used with option '--active'\n",
      ],
      [
        ['schedules', 'delete', '1', '1'],
        'svc: Delete schedule 1 of project 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
