import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { spawnPty } from '../support/pty.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const state = () => suite.sandbox.state;

describe('projects update', () => {
  it('sends only the given fields, says what changed on stderr and prints the record on stdout', async () => {
    const result = await suite.run([
      'projects',
      'update',
      '3',
      '--description',
      'Public API',
      '--topics',
      'api, rest',
      '-o',
      'json',
      '--fields',
      'id,description,topics',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: 3, description: 'Public API', topics: ['api', 'rest'] }, null, 2)}\n`,
      stderr: 'updated project 3: description, topics\n',
    });
    expect(onlyRequest(suite, 'PUT', /^\/api\/v4\/projects\/3$/).bodyJson).toEqual({ description: 'Public API', topics: ['api', 'rest'] });
  });

  it('prints nothing with -q', async () => {
    const result = await suite.run(['-q', 'projects', 'update', '3', '--name', 'Quiet name']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(state().project(3)!.name).toBe('Quiet name');
  });

  it("reports the service's validation error", async () => {
    const taken = state().project(2)!.path;
    const result = await suite.run(['projects', 'update', '1', '--path', taken]);
    expect([result.exitCode, result.stdout]).toEqual([6, '']);
    expect(result.stderr).toBe('svc: PUT /projects/1 failed: 400 Bad Request: path: has already been taken\n');
  });
});

describe('projects archive and unarchive', () => {
  it('archives (writes are then refused) and unarchives', async () => {
    const archived = await suite.run(['projects', 'archive', '2', '-o', 'json', '--fields', 'id,archived']);
    expect(archived).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: 2, archived: true }, null, 2)}\n`,
      stderr: 'archived project 2\n',
    });
    const refused = await fetch(`${suite.sandbox.url}/api/v4/projects/2/issues`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'on an archived project' }),
    });
    expect([refused.status, await refused.json()]).toEqual([403, { message: '403 Forbidden' }]);
    const unarchived = await suite.run(['projects', 'unarchive', '2', '-o', 'json', '--fields', 'archived']);
    expect([unarchived.exitCode, unarchived.stdout, unarchived.stderr]).toEqual([
      0,
      `${JSON.stringify({ archived: false }, null, 2)}\n`,
      'unarchived project 2\n',
    ]);
  });

  it('shows the archived state it changed in the default table, and restore the same', async () => {
    const header =
      'id\tpath_with_namespace\tname\tdescription\tvisibility\tdefault_branch\trepository_storage\tweb_url\tcreated_at\tlast_activity_at\tarchived';
    const column = (stdout: string) =>
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[10]);
    const archived = await suite.run(['projects', 'archive', '4']);
    expect([archived.exitCode, archived.stdout.split('\n')[0], column(archived.stdout)]).toEqual([0, header, ['archived', 'true']]);
    const unarchived = await suite.run(['projects', 'unarchive', '4']);
    expect([unarchived.exitCode, column(unarchived.stdout)]).toEqual([0, ['archived', 'false']]);
    expect((await suite.run(['projects', 'delete', '4', '--yes'])).exitCode).toBe(0);
    const restored = await suite.run(['projects', 'restore', '4']);
    expect([restored.exitCode, restored.stdout.split('\n')[0], column(restored.stdout)]).toEqual([0, header, ['archived', 'false']]);
  });

  it('names the missing role when the token may not (exit 4)', async () => {
    const result = await suite.run(['projects', 'archive', '2'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /projects/2/archive failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
    expect(state().project(2)!.archived).toBe(false);
  });
});

describe('projects delete and restore', () => {
  it('names the owner role when a maintainer tries (exit 4), and deletes nothing', async () => {
    const path = state().project(2)!.fullPath;
    const result = await suite.run(['projects', 'delete', '2', '--yes'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: DELETE /projects/2 failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
    expect(state().project(2)!.fullPath).toBe(path);
  });

  it('refuses without --yes when stdin is not a terminal, before any write (exit 2)', async () => {
    const result = await suite.run(['projects', 'delete', '4']);
    const path = state().project(4)!.fullPath;
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Delete project ${path} (4): pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests().map((r) => r.method)).toEqual(['GET']);
  });

  it('says a project already scheduled for deletion is left as it is, without asking or writing', async () => {
    expect((await suite.run(['projects', 'delete', '5', '--yes'])).exitCode).toBe(0);
    const renamed = state().project(5)!.fullPath;
    const on = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const again = await suite.run(['projects', 'delete', '5', '-o', 'json', '--fields', 'path_with_namespace,marked_for_deletion_on']);
    expect(again).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ path_with_namespace: renamed, marked_for_deletion_on: on }, null, 2)}\n`,
      stderr: `project ${renamed} (5) is already scheduled for deletion on ${on}: nothing changed (remove it now with \`svc projects delete 5 --permanently\`)\n`,
    });
    expect(suite.requests().map((r) => r.method)).toEqual(['GET']);
    expect((await suite.run(['projects', 'restore', '5'])).exitCode).toBe(0);
  });

  it('schedules the deletion with its date, restores it, then removes it permanently with the renamed path', async () => {
    const path = state().project(3)!.fullPath;
    const scheduled = await suite.run([
      'projects',
      'delete',
      '3',
      '--yes',
      '-o',
      'json',
      '--fields',
      'path_with_namespace,archived,marked_for_deletion_on',
    ]);
    const on = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const renamed = `${path}-deletion_scheduled-3`;
    expect(scheduled).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ path_with_namespace: renamed, archived: true, marked_for_deletion_on: on }, null, 2)}\n`,
      stderr: `scheduled project ${path} (3) for deletion on ${on}: renamed ${renamed}, archived (undo with \`svc projects restore 3\`, or remove it now with \`svc projects delete 3 --permanently\`)\n`,
    });

    const restored = await suite.run(['projects', 'restore', '3', '-o', 'json', '--fields', 'path_with_namespace,archived']);
    expect([restored.exitCode, restored.stdout, restored.stderr]).toEqual([
      0,
      `${JSON.stringify({ path_with_namespace: path, archived: false }, null, 2)}\n`,
      'restored project 3\n',
    ]);

    const unmarked = await suite.run(['projects', 'delete', '3', '--permanently', '--yes']);
    expect(unmarked).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: DELETE /projects/3 failed: 400 Bad Request: Project must be marked for deletion first.\n',
    });

    await suite.run(['projects', 'delete', '3', '--yes']);
    const removed = await suite.run(['projects', 'delete', renamed, '--permanently', '--yes']);
    expect(removed).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `permanent deletion of project ${renamed} (3) accepted (202 Accepted: scheduled for processing, not finished yet)\n`,
    });
    const sent = onlyRequest(suite, 'DELETE', /^\/api\/v4\/projects\/3$/);
    expect(new URLSearchParams(sent.rawQuery).get('full_path')).toBe(renamed);
    expect(state().project(3)).toBeNull();
  });

  it('reports a personal project, which the service deletes at once, as accepted', async () => {
    const fork = await suite.run(['projects', 'fork', '1', '--namespace', 'root', '--path', 'to-delete', '-o', 'json', '--fields', 'id']);
    const id = (JSON.parse(fork.stdout) as { id: number }).id;
    const result = await suite.run(['projects', 'delete', String(id), '--yes']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `deletion of project root/to-delete (${id}) accepted (202 Accepted: scheduled for processing, not finished yet)\n`,
    });
    expect(state().project(id)).toBeNull();
  });

  it('asks on a terminal and does nothing unless the answer is yes', async () => {
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    const path = state().project(5)!.fullPath;
    const declined = spawnPty(['node', BIN, 'projects', 'delete', '5'], { env });
    await declined.waitFor(`Delete project ${path} (5)? [y/N] `);
    declined.write('n\r');
    const no = await declined.exit();
    expect([no.exitCode, no.output]).toEqual([
      1,
      `Delete project ${path} (5)? [y/N] n\r\nsvc: Delete project ${path} (5): not confirmed, nothing was changed\r\n`,
    ]);
    expect(state().project(5)!.fullPath).toBe(path);

    const accepted = spawnPty(['node', BIN, 'projects', 'delete', '5', '--fields', 'id'], { env });
    await accepted.waitFor('? [y/N] ');
    accepted.write('yes\r');
    const yes = await accepted.exit();
    expect(yes.exitCode).toBe(0);
    expect(yes.output).toContain(`scheduled project ${path} (5) for deletion on `);
    expect(state().project(5)!.fullPath).toBe(`${path}-deletion_scheduled-5`);
  });
});

describe('projects transfer, share and fork', () => {
  it('transfers a project, and reports an unknown namespace (exit 5)', async () => {
    const name = state().project(1)!.path;
    const moved = await suite.run(['projects', 'transfer', '1', '--namespace', 'globex', '-o', 'json', '--fields', 'path_with_namespace']);
    expect([moved.exitCode, moved.stdout, moved.stderr]).toEqual([
      0,
      `${JSON.stringify({ path_with_namespace: `globex/${name}` }, null, 2)}\n`,
      'transferred project 1 to namespace globex\n',
    ]);
    const unknown = await suite.run(['projects', 'transfer', '1', '--namespace', 'no-such-group']);
    expect(unknown).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: PUT /projects/1/transfer failed: 404 Namespace Not Found\n' });
  });

  it('shares with a group by path and access name, and reports an existing share (exit 6)', async () => {
    const shared = await suite.run([
      'projects',
      'share',
      '7',
      '--group',
      'initech',
      '--access',
      'reporter',
      '--expires',
      '2027-01-31',
      '-o',
      'json',
    ]);
    expect(shared.exitCode).toBe(0);
    expect(JSON.parse(shared.stdout)).toEqual({ id: 7004, project_id: 7, group_id: 4, group_access: 20, expires_at: '2027-01-31' });
    expect(shared.stderr).toBe('shared project 7 with group initech as reporter until 2027-01-31\n');
    const again = await suite.run(['projects', 'share', '7', '--group', '4', '--access', '20']);
    expect(again).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/7/share failed: 409 Conflict: Group already shared with this group\n',
    });
    const bad = await suite.run(['projects', 'share', '7', '--group', '4', '--access', 'admin']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      "svc: --access 'admin': expected one of guest (10), planner (15), reporter (20), developer (30), maintainer (40), owner (50)\n",
    ]);
  });

  it('forks into a namespace, and reports a taken name (exit 6)', async () => {
    const source = state().project(8)!;
    const fork = await suite.run(['projects', 'fork', '8', '--namespace', 'globex', '-o', 'json', '--fields', 'path_with_namespace,name']);
    expect([fork.exitCode, fork.stdout, fork.stderr]).toEqual([
      0,
      `${JSON.stringify({ path_with_namespace: `globex/${source.path}`, name: source.name }, null, 2)}\n`,
      'forked project 8 into globex\n',
    ]);
    const again = await suite.run(['projects', 'fork', '8', '--namespace', 'globex']);
    expect(again).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /projects/8/fork failed: 409 Conflict: Name has already been taken, Path has already been taken\n',
    });
  });
});
