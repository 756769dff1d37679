import { describe, expect, it } from 'vitest';
import { addMember, useSandbox } from './support.js';

// `svc packages` lists, shows and deletes a project's package versions and their files, and plans a
// clean-up per package (name and type); the sandbox answers as lib/api/project_packages.rb and
// package_files.rb (test/sandbox/conformance/packages.test.ts). Seeded project 2: packages 13–18 are
// app-bundle 1.0.0 … 1.5.0 (generic), 19–21 @acme/client 0.1.0 … 0.3.0 (npm), 22–23 com/acme/core 1.0 and
// 1.1 (maven); each package's versions are 9 days apart, its newest 9–11 days old.
describe('svc packages', () => {
  const NOW = Date.now();
  const suite = useSandbox({ projects: 5, clock: () => NOW });
  const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`);
  const writes = () =>
    suite
      .requests()
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.rawPath}`);

  it('lists package versions with the service’s filters, shows one with its versions, and lists its files', async () => {
    const npm = await suite.run(['packages', 'list', '2', '--type', 'npm', '--sort', 'desc', '-o', 'tsv', '--fields', 'id,name,version']);
    expect(npm.stdout).toBe('id\tname\tversion\n21\t@acme/client\t0.3.0\n20\t@acme/client\t0.2.0\n19\t@acme/client\t0.1.0\n');
    expect(sent()).toEqual(['GET /api/v4/projects/2/packages?package_type=npm&sort=desc&per_page=100']);
    const one = await suite.run(['packages', 'get', '2', '22', '-o', 'json']);
    const record = JSON.parse(one.stdout) as { name: string; versions: Array<{ id: number; version: string }> };
    expect(record.name).toBe('com/acme/core');
    expect(record.versions.map((v) => [v.id, v.version])).toEqual([[23, '1.1']]);
    const files = await suite.run(['packages', 'files', '2', '22', '--order-by', 'file_name', '-o', 'tsv', '--fields', 'file_name']);
    expect(files.stdout).toBe('file_name\ncore-1.0.jar\ncore-1.0.pom\nmaven-metadata.xml\n');
  });

  it('plans per package; the dry run sends no write, the real run exactly the plan’s deletes', async () => {
    const args = ['packages', 'cleanup', '2', '--keep-n', '2', '--older-than', '20d', '-o', 'tsv', '--fields', 'id,name,version'];
    const dry = await suite.run([...args, '--dry-run']);
    expect(dry.exitCode).toBe(0);
    // Of each package the two newest stay; the older ones are all past 20 days.
    expect(dry.stdout).toBe(
      'id\tname\tversion\n19\t@acme/client\t0.1.0\n13\tapp-bundle\t1.0.0\n14\tapp-bundle\t1.1.0\n15\tapp-bundle\t1.2.0\n16\tapp-bundle\t1.3.0\n',
    );
    expect(dry.stderr).toBe('dry run: would delete 5 package versions of project 2\n');
    expect(writes()).toEqual([]);
    const real = await suite.run([...args, '--yes']);
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toBe(dry.stdout);
    expect(writes().sort()).toEqual([13, 14, 15, 16, 19].map((id) => `DELETE /api/v4/projects/2/packages/${id}`));
    expect(real.stderr).toBe('deleted 5 package versions of 5\n');
    const again = await suite.run([...args, '--dry-run']);
    expect(again).toEqual({ exitCode: 0, stdout: '', stderr: 'no package version of project 2 matches: nothing to delete\n' });
  });

  it('deletes one version (asking first), and says when it is gone', async () => {
    const deleted = await suite.run(['packages', 'delete', '2', '23', '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted package 23 of project 2\n' });
    const gone = await suite.run(['packages', 'get', '2', '23']);
    expect(gone).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /projects/2/packages/23 failed: 404 Not found\n' });
    const unasked = await suite.run(['packages', 'delete', '2', '22']);
    expect(unasked.exitCode).toBe(2);
    expect(writes()).toEqual([]);
  });

  it('refuses by role: a guest cannot read, a developer cannot delete', async () => {
    const guest = await addMember(suite, '/projects/2', 4, 10);
    const read = await suite.run(['packages', 'list', '2', '--sudo', guest]);
    expect(read).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/2/packages failed: 403 Forbidden (this needs the reporter role or administrator access)\n',
    });
    const developer = await addMember(suite, '/projects/2', 5, 30);
    const cleanup = await suite.run([
      'packages',
      'cleanup',
      '2',
      '--keep-n',
      '0',
      '--name',
      'core',
      '--yes',
      '-q',
      '--sudo',
      developer,
      '--max-in-flight',
      '1',
    ]);
    expect(cleanup.exitCode).toBe(4);
    expect(writes()).toEqual(['DELETE /api/v4/projects/2/packages/22']);
    expect(cleanup.stderr.split('\n').slice(-2)[0]).toBe(
      'svc: deleted 0 package versions of 1; 1 failed: DELETE /projects/2/packages/22 failed: 403 Forbidden (this needs the maintainer role or administrator access)',
    );
    const none = await suite.run(['packages', 'cleanup', '2']);
    expect(none).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: say which versions to delete: --keep-n N (per package), --older-than AGE, or both\n',
    });
  });
});
