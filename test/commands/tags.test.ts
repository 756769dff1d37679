import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const names = (stdout: string) => (JSON.parse(stdout) as Array<{ name: string }>).map((t) => t.name);

describe('tags list', () => {
  it('orders and filters as asked, sending the service its own parameters', async () => {
    const byVersion = await suite.run(['tags', 'list', '1', '--order-by', 'version', '--sort', 'asc', '-o', 'json']);
    expect(byVersion.exitCode).toBe(0);
    expect(names(byVersion.stdout)).toEqual(['v1.0.0', 'v1.0.0+build.5', 'v1.1.0', 'v2.0.0-rc.1']);
    expect(onlyRequest(suite, 'GET', /tags/).rawQuery).toBe('order_by=version&sort=asc&per_page=100');

    const updated = await suite.run(['tags', 'list', '1', '-o', 'json']);
    expect(names(updated.stdout)).toEqual(['v1.1.0', 'v2.0.0-rc.1', 'v1.0.0+build.5', 'v1.0.0']);

    const search = await suite.run([
      'tags',
      'list',
      '1',
      '--search',
      '^v1.0',
      '--order-by',
      'name',
      '--sort',
      'asc',
      '--fields',
      'name,protected',
    ]);
    expect(search.stdout).toBe('name\tprotected\nv1.0.0\ttrue\nv1.0.0+build.5\ttrue\n');

    const bad = await suite.run(['tags', 'list', '1', '--order-by', 'date']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      "svc: error: option '--order-by <field>' argument 'date' is invalid. Allowed choices are name, updated, version.\n",
    ]);
  });
});

describe('tags create and delete', () => {
  it('creates an annotated tag whose name holds + and /, then deletes it', async () => {
    const name = 'nightly/2026+01%x';
    const created = await suite.run(['tags', 'create', '1', name, '--ref', 'develop', '--message', 'Nightly', '-o', 'json']);
    expect(created.exitCode).toBe(0);
    const tag = JSON.parse(created.stdout) as { name: string; message: string; commit: { id: string; short_id: string } };
    const develop = JSON.parse((await suite.run(['branches', 'get', '1', 'develop', '-o', 'json'])).stdout) as { commit: { id: string } };
    expect([tag.name, tag.message, tag.commit.id]).toEqual([name, 'Nightly', develop.commit.id]);
    expect(created.stderr).toBe(`created tag ${name} of project 1 at ${tag.commit.short_id}\n`);

    const shown = await suite.run(['tags', 'get', '1', name, '--fields', 'name,message']);
    expect(shown.stdout).toBe(`name\tmessage\n${name}\tNightly\n`);
    expect(onlyRequest(suite, 'GET', /tags/).rawPath).toBe('/api/v4/projects/1/repository/tags/nightly%2F2026%2B01%25x');

    const deleted = await suite.run(['tags', 'delete', '1', name, '--yes']);
    expect(deleted).toMatchObject({ exitCode: 0, stdout: '', stderr: `deleted tag ${name} of project 1\n` });
    const gone = await suite.run(['tags', 'get', '1', name]);
    expect([gone.exitCode, gone.stderr]).toEqual([
      5,
      'svc: GET /projects/1/repository/tags/nightly%2F2026%2B01%25x failed: 404 Tag Not Found\n',
    ]);
  });

  it("passes on the service's refusals: a taken name, an unknown ref, a missing --ref", async () => {
    const taken = await suite.run(['tags', 'create', '1', 'v1.0.0', '--ref', 'main']);
    expect([taken.exitCode, taken.stderr]).toEqual([
      6,
      'svc: POST /projects/1/repository/tags failed: 400 Bad Request: Tag v1.0.0 already exists\n',
    ]);
    const badRef = await suite.run(['tags', 'create', '1', 'x1', '--ref', 'nope']);
    expect([badRef.exitCode, badRef.stderr]).toEqual([
      6,
      'svc: POST /projects/1/repository/tags failed: 400 Bad Request: Target nope is invalid\n',
    ]);
    const noRef = await suite.run(['tags', 'create', '1', 'x1']);
    expect([noRef.exitCode, noRef.stderr]).toEqual([2, "svc: error: required option '--ref <ref>' not specified\n"]);
  });

  it('a protected tag is refused to a developer, and the delete asks first', async () => {
    // olivia.garcia is a developer of project 1; v* tags are protected.
    const refused = await suite.run(['--sudo', 'olivia.garcia', 'tags', 'delete', '1', 'v1.0.0', '--yes']);
    expect([refused.exitCode, refused.stderr]).toEqual([
      6,
      "svc: DELETE /projects/1/repository/tags/v1.0.0 failed: 400 Bad Request: You don't have access to delete the tag\n",
    ]);
    const unasked = await suite.run(['tags', 'delete', '1', 'v1.0.0']);
    expect([unasked.exitCode, unasked.stderr]).toEqual([
      2,
      'svc: Delete tag v1.0.0 of project 1: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    ]);
    expect(suite.requests()).toEqual([]);
    const forbidden = await suite.run(['tags', 'create', '4', 'x2', '--ref', 'main'], { token: suite.sandbox.tokens.user });
    expect([forbidden.exitCode, forbidden.stderr]).toEqual([
      4,
      'svc: POST /projects/4/repository/tags failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    ]);
  });
});
