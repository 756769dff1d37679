import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const json = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;

describe('groups create', () => {
  it('creates a top-level group: what changed on stderr, the group on stdout', async () => {
    const result = await suite.run(
      [
        'groups',
        'create',
        '--name',
        'Ops',
        '--path',
        'ops',
        '--visibility',
        'internal',
        '-o',
        'json',
        '--fields',
        'full_path,visibility,parent_id',
      ],
      { token: suite.sandbox.tokens.user },
    );
    expect(result).toEqual({
      exitCode: 0,
      stdout: json({ full_path: 'ops', visibility: 'internal', parent_id: null }),
      stderr: 'created group ops\n',
    });
    expect(JSON.parse(onlyRequest(suite, 'POST', /^\/api\/v4\/groups$/).body)).toEqual({
      name: 'Ops',
      path: 'ops',
      visibility: 'internal',
    });
  });

  it('creates a subgroup under a parent given by path (looked up as its id)', async () => {
    const result = await suite.run(
      ['groups', 'create', '--name', 'Tools', '--path', 'tools', '--parent', 'ops', '-o', 'json', '--fields', 'full_path'],
      {
        token: suite.sandbox.tokens.user,
      },
    );
    expect(result).toEqual({ exitCode: 0, stdout: json({ full_path: 'ops/tools' }), stderr: 'created group ops/tools\n' });
    const sent = JSON.parse(onlyRequest(suite, 'POST', /^\/api\/v4\/groups$/).body);
    expect(sent).toEqual({ name: 'Tools', path: 'tools', parent_id: suite.sandbox.state.group('ops')!.id });
  });

  it('names the owner role when the caller may not create under the parent (exit 4)', async () => {
    const result = await suite.run(['groups', 'create', '--name', 'X', '--path', 'x', '--parent', '1'], {
      token: suite.sandbox.tokens.user,
    });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /groups failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
  });

  it("reports a taken path with the service's text (exit 6)", async () => {
    const result = await suite.run(['groups', 'create', '--name', 'Acme', '--path', 'acme']);
    expect(result).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /groups failed: 400 Bad Request: Failed to save group {:path=>["has already been taken"]}\n',
    });
  });
});

describe('groups update', () => {
  it('changes the fields given and says which', async () => {
    const result = await suite.run(
      [
        'groups',
        'update',
        'ops/tools',
        '--path',
        'devtools',
        '--description',
        'Build tools',
        '-o',
        'json',
        '--fields',
        'full_path,description',
      ],
      {
        token: suite.sandbox.tokens.user,
      },
    );
    expect(result).toEqual({
      exitCode: 0,
      stdout: json({ full_path: 'ops/devtools', description: 'Build tools' }),
      stderr: 'updated group ops/tools: path, description\n',
    });
  });

  it('refuses to send an update that changes nothing (exit 2, no request)', async () => {
    const result = await suite.run(['groups', 'update', 'acme'], { token: suite.sandbox.tokens.admin });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: give at least one of --name, --path, --description, --visibility (what to change)\n',
    });
    expect(suite.requests()).toEqual([]);
  });

  it('names the owner role for a maintainer (exit 4)', async () => {
    const result = await suite.run(['groups', 'update', 'acme', '--description', 'x'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: PUT /groups/acme failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
  });
});

describe('groups transfer', () => {
  it('moves a group under another given by path, and back to the top level', async () => {
    const under = await suite.run([
      'groups',
      'transfer',
      'ops/devtools',
      '--parent',
      'acme',
      '-o',
      'json',
      '--fields',
      'full_path,parent_id',
    ]);
    expect(under).toEqual({
      exitCode: 0,
      stdout: json({ full_path: 'acme/devtools', parent_id: 1 }),
      stderr: 'transferred group ops/devtools to group acme: now acme/devtools\n',
    });
    expect(JSON.parse(onlyRequest(suite, 'POST', /transfer$/).body)).toEqual({ group_id: 1 });
    const top = await suite.run(['groups', 'transfer', 'acme/devtools', '--to-top-level', '-q']);
    expect(top).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/groups\/acme%2Fdevtools\/transfer$/).body).toBe('{}');
    expect(suite.sandbox.state.group('devtools')!.parentId).toBe(null);
  });

  it('needs exactly one of --parent and --to-top-level (exit 2, before any request)', async () => {
    const neither = await suite.run(['groups', 'transfer', 'devtools']);
    expect(neither).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give --parent GROUP or --to-top-level (where to move the group)\n' });
    expect(suite.requests()).toEqual([]);
  });

  it("reports the service's refusal (exit 6) and names the owner role (exit 4)", async () => {
    const root = await suite.run(['groups', 'transfer', 'acme', '--to-top-level']);
    expect(root).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /groups/acme/transfer failed: 400 Bad Request: Transfer failed: Group is already a root group.\n',
    });
    const forbidden = await suite.run(['groups', 'transfer', 'acme/platform', '--to-top-level'], { token: suite.sandbox.tokens.user });
    expect(forbidden).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /groups/acme%2Fplatform/transfer failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
  });
});

describe('groups delete', () => {
  it('requires --yes when stdin is not a terminal (exit 2), deleting nothing', async () => {
    const g = suite.sandbox.state.group('devtools')!;
    const result = await suite.run(['groups', 'delete', 'devtools']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Delete group devtools (${g.id}): pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests().map((r) => r.method)).toEqual(['GET']);
  });

  it('reports the delayed deletion as scheduled, with its date and new path', async () => {
    const g = suite.sandbox.state.group('devtools')!;
    const result = await suite.run(['groups', 'delete', 'devtools', '--yes', '-o', 'json', '--fields', 'full_path,marked_for_deletion_on']);
    const on = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const renamed = `devtools-deletion_scheduled-${g.id}`;
    expect(result).toEqual({
      exitCode: 0,
      stdout: json({ full_path: renamed, marked_for_deletion_on: on }),
      stderr: `scheduled group devtools (${g.id}) for deletion on ${on}: renamed ${renamed}\n`,
    });
  });

  it('names the owner role for a maintainer (exit 4)', async () => {
    const result = await suite.run(['groups', 'delete', 'acme', '--yes'], { token: suite.sandbox.tokens.user });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: DELETE /groups/1 failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });
  });
});
