import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `svc schedules list --owner U`: the schedules one user owns across the projects the token can read
// schedules of, each project's listing on the client's throttle (src/workflows/schedule-handover/owned.ts).
describe('svc schedules list --owner', () => {
  const NOW = Date.UTC(2026, 0, 15, 10, 30);
  const suite = useSandbox({ projects: 4, clock: () => NOW });
  const path = (id: number) => suite.sandbox.state.project(id)!.fullPath;
  const create = async (project: string, description: string, token: string, inactive = false) => {
    const args = ['schedules', 'create', project, '--description', description, '--ref', 'main', '--cron', '0 2 * * *', '-q'];
    expect((await suite.run(inactive ? [...args, '--inactive'] : args, { token })).exitCode).toBe(0);
  };

  it("lists one user's schedules across every project, with the project's path, in project order", async () => {
    const { admin, user } = suite.sandbox.tokens;
    await create('3', 'Nightly of jdoe', user);
    await create('1', 'Admin nightly', admin);
    await create('1', 'Weekly of jdoe', user, true);
    await create('2', 'Another admin one', admin);
    const result = await suite.run(['schedules', 'list', '--owner', 'jdoe', '--fields', 'project,id,description,active,owner.username']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `project\tid\tdescription\tactive\towner.username\n${path(1)}\t3\tWeekly of jdoe\tfalse\tjdoe\n${path(3)}\t1\tNightly of jdoe\ttrue\tjdoe\n`,
      stderr: '',
    });
    const requests = suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`);
    expect(requests.slice(0, 3)).toEqual([
      '/api/v4/users?username=jdoe',
      '/api/v4/user?',
      '/api/v4/projects?simple=true&per_page=100&pagination=keyset&order_by=id&sort=asc',
    ]);
    const all = await fetch(`${suite.sandbox.url}/api/v4/projects?per_page=100&simple=true`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    const ids = ((await all.json()) as Array<{ id: number }>).map((p) => p.id);
    expect(requests.filter((r) => r.includes('/pipeline_schedules')).sort()).toEqual(
      ids.map((id) => `/api/v4/projects/${id}/pipeline_schedules?per_page=100`).sort(),
    );

    const active = await suite.run([
      'schedules',
      'list',
      '--owner',
      '2',
      '--scope',
      'active',
      '-o',
      'json',
      '--fields',
      'project,description',
    ]);
    expect(JSON.parse(active.stdout)).toEqual([{ project: path(3), description: 'Nightly of jdoe' }]);
    expect(suite.requests().filter((r) => r.rawPath.endsWith('/pipeline_schedules'))[0]!.rawQuery).toBe('scope=active&per_page=100');
  });

  it('as a regular user reads only the projects where it is at least a reporter', async () => {
    const result = await suite.run(['schedules', 'list', '--owner', 'root', '-o', 'json', '--fields', 'project,description'], {
      token: suite.sandbox.tokens.user,
    });
    expect(result.exitCode).toBe(0);
    expect(suite.requests()[2]!.rawQuery).toBe('simple=true&per_page=100&pagination=keyset&order_by=id&sort=asc&min_access_level=20');
    const listed = (JSON.parse(result.stdout) as Array<{ project: string; description: string }>).map((s) => s.description);
    expect(listed).toEqual(['Admin nightly', 'Another admin one']);
  });

  it('refuses a user that does not exist with exit 5, before reading any project', async () => {
    const cases: Array<[string, string, string]> = [
      ['nosuchuser', "svc: no user with username 'nosuchuser'\n", '/api/v4/users?username=nosuchuser'],
      ['99999', 'svc: no user with the id 99999\n', '/api/v4/users/99999?'],
    ];
    for (const [owner, stderr, request] of cases) {
      expect(await suite.run(['schedules', 'list', '--owner', owner])).toEqual({ exitCode: 5, stdout: '', stderr });
      expect(suite.requests().map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([request]);
    }
  });

  it('needs a PROJECT or --owner, not both (exit 2, no request)', async () => {
    const cases: Array<[string[], string]> = [
      [['schedules', 'list'], 'svc: give a PROJECT, or --owner USER to list the schedules a user owns across projects\n'],
      [['schedules', 'list', '1', '--owner', 'jdoe'], 'svc: give a PROJECT or --owner, not both\n'],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
