import { describe, expect, it } from 'vitest';
import { addMember, useSandbox } from './support.js';

// `svc protected-branches protect|unprotect NAME --group G` and the same for tags: one rule over every
// project of a group, the plan first (a read per project), then exactly the planned writes on the bounded
// pool; the single-project form keeps `PROJECT NAME`.
describe('svc protected-branches and protected-tags with --group', () => {
  const suite = useSandbox({ projects: 5 });
  const writes = () => suite.requests().filter((r) => r.method !== 'GET');
  const acmeTree = ['--group', 'acme', '--include-subgroups'];
  const planTsv = ['-o', 'tsv', '--fields', 'project_id,action,reason'];

  it('a dry run reads and plans but sends no write', async () => {
    const dry = await suite.run([
      'protected-branches',
      'protect',
      'develop',
      '--group',
      'acme',
      '--include-subgroups',
      '--dry-run',
      '-o',
      'tsv',
    ]);
    expect(dry).toEqual({
      exitCode: 0,
      stdout:
        'project_id\tproject\taction\treason\n' +
        '1\tacme/platform/icy-tiger-1\tprotect\t\n' +
        '2\tacme/platform/eager-lynx-2\tprotect\t\n' +
        '3\tacme/nice-lynx-3\tprotect\t\n',
      stderr: 'dry run: would protect develop in 3 of 3 projects\n',
    });
    expect(writes()).toEqual([]);
    expect(suite.requests()[0]!.rawQuery).toContain('include_subgroups=true');
  });

  it('the real run sends exactly the writes of the plan, with the rule’s levels; a second run has nothing to do', async () => {
    const run = await suite.run([
      'protected-branches',
      'protect',
      'develop',
      '--group',
      'acme',
      '--include-subgroups',
      '--push',
      'no-one',
      '-o',
      'tsv',
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('protected develop in 3 of 3 planned projects\n');
    const planned = run.stdout
      .trim()
      .split('\n')
      .slice(1)
      .filter((line) => line.split('\t')[2] === 'protect')
      .map((line) => `/api/v4/projects/${line.split('\t')[0]}/protected_branches`);
    expect(
      writes()
        .map((r) => r.rawPath)
        .sort(),
    ).toEqual(planned.sort());
    expect(writes().map((r) => r.bodyJson)).toEqual(Array(3).fill({ name: 'develop', push_access_level: 0 }));
    const again = await suite.run(['protected-branches', 'protect', 'develop', ...acmeTree, ...planTsv]);
    expect(again).toEqual({
      exitCode: 0,
      stdout: 'project_id\taction\treason\n1\tskip\talready protected\n2\tskip\talready protected\n3\tskip\talready protected\n',
      stderr: 'protected develop in 0 of 0 planned projects\n',
    });
    expect(writes()).toEqual([]);
  });

  it('unprotects tags group-wide (a wildcard, encoded), only where the rule is', async () => {
    const run = await suite.run(['protected-tags', 'unprotect', 'v*', '--group', 'acme/platform', '-o', 'tsv']);
    expect(run).toEqual({
      exitCode: 0,
      stdout:
        'project_id\tproject\taction\treason\n1\tacme/platform/icy-tiger-1\tunprotect\t\n2\tacme/platform/eager-lynx-2\tunprotect\t\n',
      stderr: 'unprotected v* in 2 of 2 planned projects\n',
    });
    expect(
      writes()
        .map((r) => `${r.method} ${r.rawPath}`)
        .sort(),
    ).toEqual(['DELETE /api/v4/projects/1/protected_tags/v%2A', 'DELETE /api/v4/projects/2/protected_tags/v%2A']);
  });

  it('exit 8 when a project could not be read or written, naming it; the others are done', async () => {
    const username = await addMember(suite, '/groups/2', 5, 40);
    const run = await suite.run(['--sudo', username, 'protected-branches', 'protect', 'hotfix/*', ...acmeTree, ...planTsv]);
    expect(run).toEqual({
      exitCode: 8,
      stdout: 'project_id\taction\treason\n1\tprotect\t\n2\tprotect\t\n3\tskip\tcannot read: 403 Forbidden\n',
      stderr:
        'acme/nice-lynx-3: not changed: cannot read: 403 Forbidden\n' +
        'svc: protected hotfix/* in 2 of 2 planned projects; 1 could not be read\n',
    });
    expect(
      writes()
        .map((r) => r.rawPath)
        .sort(),
    ).toEqual(['/api/v4/projects/1/protected_branches', '/api/v4/projects/2/protected_branches']);
  });

  it('the single-project form keeps PROJECT NAME; --group takes only the name', async () => {
    const single = await suite.run(['protected-branches', 'protect', '4', 'staging', '-q']);
    expect(single).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(writes().map((r) => [r.method, r.rawPath, r.bodyJson])).toEqual([
      ['POST', '/api/v4/projects/4/protected_branches', { name: 'staging' }],
    ]);
    const cases: Array<[string[], string]> = [
      [['protected-branches', 'protect', '4'], 'svc: give the project and the name\n'],
      [
        ['protected-branches', 'protect', '4', 'x', '--group', 'acme'],
        "svc: with --group give only the name: the group's projects are the projects\n",
      ],
      [['protected-tags', 'unprotect', '4', 'v*', '--dry-run'], 'svc: --include-subgroups and --dry-run go with --group\n'],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
