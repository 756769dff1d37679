import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { addMember, useSandbox } from './support.js';

// `svc registry` lists a project's container repositories and tags, and plans a clean-up with the
// service's semantics (CleanupTagsService) before deleting tag by tag or through the bulk endpoint; the
// sandbox answers as lib/api/project_container_repositories.rb (test/sandbox/conformance/container-registry.test.ts).
// Seeded project 2 (private, jdoe a maintainer through acme): repository 3 (the root image) has latest,
// main, v1.0.0 (120 days), v1.1.0 (60), v2.0.0 (10) and dev-1 … dev-8 (40 down to 5 days old); repository 4
// (`worker`) has latest, stable and build-1 … build-4.
describe('svc registry', () => {
  const clock = new TestClock();
  const NOW = clock.now();
  const suite = useSandbox({ projects: 5, clock: clock.now });
  const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}`);
  const writes = () =>
    suite
      .requests()
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.rawPath}`);

  it('lists repositories with their tag counts, the tags of one, and one tag in detail', async () => {
    const repos = await suite.run(['registry', 'repos', '2', '--tags-count', '-o', 'tsv']);
    expect(repos.exitCode).toBe(0);
    expect(repos.stdout.split('\n')[1]).toMatch(/^3\tacme\/platform\/[a-z0-9-]+\t13\t/);
    expect(repos.stdout.split('\n')[2]).toMatch(/^4\tacme\/platform\/[a-z0-9-]+\/worker\t6\t/);
    expect(sent()).toEqual(['GET /api/v4/projects/2/registry/repositories']);
    const tags = await suite.run(['registry', 'tags', '2', '4', '-o', 'tsv', '--fields', 'name']);
    expect(tags.stdout).toBe('name\nbuild-1\nbuild-2\nbuild-3\nbuild-4\nlatest\nstable\n');
    const tag = await suite.run(['registry', 'tag', '2', '4', 'stable', '-o', 'json']);
    const detail = JSON.parse(tag.stdout) as Record<string, unknown>;
    expect(Object.keys(detail)).toEqual(['name', 'path', 'location', 'revision', 'short_revision', 'digest', 'created_at', 'total_size']);
    expect(detail.created_at).toBe(new Date(NOW - 20 * 86_400_000).toISOString());
    const missing = await suite.run(['registry', 'tag', '2', '4', 'nope']);
    expect(missing).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: GET /projects/2/registry/repositories/4/tags/nope failed: 404 Tag Not Found\n',
    });
  });

  it('plans with the service’s semantics; the dry run sends no write, the real run exactly the plan’s deletes', async () => {
    const args = [
      'registry',
      'cleanup',
      '2',
      '3',
      '--name-regex',
      'dev-.*|v.*',
      '--keep-regex',
      'v2\\..*',
      '--keep-n',
      '2',
      '--older-than',
      '30d',
    ];
    const dry = await suite.run([...args, '--dry-run', '-o', 'tsv', '--fields', 'name']);
    expect(dry.exitCode).toBe(0);
    // Candidates: dev-1…8, v1.0.0, v1.1.0 (v2.0.0 kept by --keep-regex); the newest two (dev-8, dev-7) kept;
    // of the rest, those created over 30 days ago.
    expect(dry.stdout).toBe('name\ndev-1\ndev-2\ndev-3\nv1.0.0\nv1.1.0\n');
    expect(dry.stderr).toMatch(/^dry run: would delete 5 tags of 13 \(\d+\.\d MB\) from registry repository 3 of project 2\n$/);
    expect(writes()).toEqual([]);
    expect(sent().filter((s) => s.includes('/tags/')).length).toBe(10);

    const real = await suite.run([...args, '--yes', '-o', 'tsv', '--fields', 'name']);
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toBe(dry.stdout);
    expect(writes().sort()).toEqual(
      ['dev-1', 'dev-2', 'dev-3', 'v1.0.0', 'v1.1.0'].map((t) => `DELETE /api/v4/projects/2/registry/repositories/3/tags/${t}`),
    );
    expect(real.stderr.split('\n').slice(-2)).toEqual(['deleted 5 tags of 5', '']);
    const left = await suite.run(['registry', 'tags', '2', '3', '-o', 'tsv', '--fields', 'name']);
    expect(left.stdout).toBe('name\ndev-4\ndev-5\ndev-6\ndev-7\ndev-8\nlatest\nmain\nv2.0.0\n');
  });

  it('hands the criteria to the bulk endpoint with --bulk, once an hour, and reports the service’s answer', async () => {
    const args = ['registry', 'cleanup', '3', '6', '--older-than', '10d', '--yes'];
    const first = await suite.run([...args, '--bulk', '-o', 'tsv', '--fields', 'name']);
    expect(first.exitCode).toBe(0);
    expect(writes()).toEqual(['DELETE /api/v4/projects/3/registry/repositories/6/tags']);
    expect(JSON.parse(suite.requests().find((r) => r.method === 'DELETE')!.body)).toEqual({ name_regex_delete: '.*', older_than: '10d' });
    expect(first.stderr).toContain('the service accepted the clean-up (202 Accepted)');
    const again = await suite.run([...args, '--bulk', '-q']);
    expect(again.exitCode).toBe(6);
    expect(again.stderr.split('\n').slice(-2)[0]).toBe(
      'svc: DELETE /projects/3/registry/repositories/6/tags failed: 400 Bad Request: This request has already been made. You can run this at most once an hour for a given container repository',
    );
  });

  it('exits 8 when a planned tag is gone by the time of its delete, having deleted the others', async () => {
    // A bulk clean-up of dev-1 is pending (its worker runs 500 ms later); each tag read of the plan moves the
    // clock 100 ms, so the worker takes dev-1 after the plan read it and before svc deletes it.
    const bulk = await fetch(`${suite.sandbox.url}/api/v4/projects/4/registry/repositories/7/tags`, {
      method: 'DELETE',
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name_regex_delete: 'dev-1' }),
    });
    expect(bulk.status).toBe(202);
    clock.stepPerRequest(suite.sandbox, 'GET /projects/:id/registry/repositories/:repository_id/tags/:tag_name', 100);
    const result = await suite.run(['registry', 'cleanup', '4', '7', '--name-regex', 'dev-.*', '--max-in-flight', '1', '--yes', '-q']);
    clock.hold();
    expect(result.exitCode).toBe(8);
    expect(writes().length).toBe(8);
    expect(result.stderr.split('\n').slice(-3)).toEqual([
      'warning: tag dev-1 failed: DELETE /projects/4/registry/repositories/7/tags/dev-1 failed: 400 Bad request',
      'svc: deleted 7 tags of 8; 1 failed',
      '',
    ]);
  });

  it('refuses by role: a guest cannot read, a reporter cannot delete', async () => {
    const guest = await addMember(suite, '/projects/2', 4, 10);
    const read = await suite.run(['registry', 'repos', '2', '--sudo', guest]);
    expect(read).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/2/registry/repositories failed: 403 Forbidden (this needs the reporter role or administrator access)\n',
    });
    const reporter = await addMember(suite, '/projects/2', 5, 20);
    const cleanup = await suite.run([
      'registry',
      'cleanup',
      '2',
      '4',
      '--name-regex',
      'build-.*',
      '--yes',
      '-q',
      '--sudo',
      reporter,
      '--max-in-flight',
      '1',
    ]);
    expect(cleanup.exitCode).toBe(4);
    expect(writes()).toEqual(['DELETE /api/v4/projects/2/registry/repositories/4/tags/build-1']);
    expect(cleanup.stderr.split('\n').slice(-2)[0]).toBe(
      'svc: deleted 0 tags of 4; 1 failed; 3 not started: DELETE /projects/2/registry/repositories/4/tags/build-1 failed: 403 Forbidden (this needs the developer role or administrator access)',
    );
  });

  it('refuses before any request: no criteria, a regex RE2 does not take', async () => {
    const none = await suite.run(['registry', 'cleanup', '2', '3']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^svc: say which tags to delete/);
    const look = await suite.run(['registry', 'cleanup', '2', '3', '--name-regex', '(?!v).*']);
    expect(look).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: --name-regex: look-around and back-references are not RE2 syntax\n' });
    expect(suite.requests()).toEqual([]);
  });
});
