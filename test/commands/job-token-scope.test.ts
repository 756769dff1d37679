import { describe, expect, it } from 'vitest';
import { addMember, useSandbox } from './support.js';

// `svc job-token-scope` over the sandbox's inbound job token scope, which answers as the service's
// lib/api/project_job_token_scope.rb (test/sandbox/conformance/job-token-scope.test.ts). Seeded
// project 2 restricts inbound job tokens; project 1 does not. Project 4 lives in initech/backend.
const suite = useSandbox({ projects: 5 });
const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}`);

describe('svc job-token-scope', () => {
  it('answers whether a job of another project may reach a project, with the reason, and exit 10 for no', async () => {
    const state = suite.sandbox.state;
    const [one, two, four] = [1, 2, 4].map((id) => state.project(id)!.fullPath);
    const scope = await suite.run(['job-token-scope', 'get', '2']);
    expect(scope).toEqual({
      exitCode: 0,
      stdout: `inbound_enabled\toutbound_enabled\tallowlist\tgroups_allowlist\ntrue\tfalse\t${two}\t\n`,
      stderr: '',
    });
    const no = await suite.run(['job-token-scope', 'get', '2', '--project', '1']);
    const reason = `${one} is neither on the allowlist of ${two} nor in a group on it`;
    expect(no).toEqual({ exitCode: 10, stdout: `allowed\treason\nfalse\t${reason}\n`, stderr: `svc: no: ${reason}\n` });
    const self = await suite.run(['job-token-scope', 'get', '2', '--project', two!, '--fields', 'reason']);
    expect(self.stdout).toBe(`reason\n${two} is the project itself\n`);
    const open = await suite.run(['job-token-scope', 'get', '1', '--project', '4', '-o', 'json']);
    expect(JSON.parse(open.stdout)).toEqual({
      project: '1',
      job_project: '4',
      allowed: true,
      reason: `the inbound job token scope of ${one} is disabled: every project's jobs may reach it`,
    });

    const added = await suite.run(['job-token-scope', 'add', two!, '--project', one!]);
    expect(added).toEqual({
      exitCode: 0,
      stdout: 'source_project_id\ttarget_project_id\n2\t1\n',
      stderr: `added project ${one} to the job token allowlist of project ${two}\n`,
    });
    expect(suite.requests().map((r) => [r.method, r.rawPath, r.bodyJson ?? null])).toEqual([
      ['GET', `/api/v4/projects/${encodeURIComponent(two!)}`, null],
      ['GET', `/api/v4/projects/${encodeURIComponent(one!)}`, null],
      ['POST', '/api/v4/projects/2/job_token_scope/allowlist', { target_project_id: 1 }],
    ]);
    const yes = await suite.run(['job-token-scope', 'get', '2', '--project', '1', '--fields', 'allowed,reason']);
    expect(yes).toEqual({ exitCode: 0, stdout: `allowed\treason\ntrue\t${one} is on the allowlist of ${two}\n`, stderr: '' });

    expect((await suite.run(['job-token-scope', 'add', '2', '--group', 'initech', '-q'])).exitCode).toBe(0);
    const inGroup = await suite.run(['job-token-scope', 'get', '2', '--project', '4', '--fields', 'reason']);
    expect(inGroup.stdout).toBe(`reason\n${four} is in group initech, on the group allowlist of ${two}\n`);
    const subgroup = await suite.run(['job-token-scope', 'get', '2', '--group', 'initech/backend']);
    expect(subgroup).toEqual({
      exitCode: 0,
      stdout: `job_project\tallowed\treason\n${four}\ttrue\t${four} is in group initech, on the group allowlist of ${two}\n`,
      stderr: '',
    });
    const twice = await suite.run(['job-token-scope', 'add', '2', '--group', 'initech']);
    expect(twice).toEqual({
      exitCode: 6,
      stdout: '',
      stderr:
        'svc: POST /projects/2/job_token_scope/groups_allowlist failed: 400 Bad request - Target group is already in the job token scope\n',
    });

    const removed = await suite.run(['job-token-scope', 'remove', '2', '--project', '1']);
    expect(removed).toEqual({ exitCode: 0, stdout: '', stderr: 'removed project 1 from the job token allowlist of project 2\n' });
    expect(sent()).toEqual(['DELETE /api/v4/projects/2/job_token_scope/allowlist/1']);
    const again = await suite.run(['job-token-scope', 'remove', '2', '--project', '1']);
    expect(again.stderr).toBe(
      'svc: DELETE /projects/2/job_token_scope/allowlist/1 failed: 400 Bad request - Target project is not in the job token scope\n',
    );
  });

  it('answers --group G with one record per project of G, by path, and exit 10 when any may not reach PROJECT', async () => {
    const [one, two] = [1, 2].map((id) => suite.sandbox.state.project(id)!.fullPath);
    const r = await suite.run(['job-token-scope', 'get', '2', '--group', 'acme/platform', '-o', 'json']);
    expect([r.exitCode, JSON.parse(r.stdout), r.stderr]).toEqual([
      10,
      [
        { job_project: two, allowed: true, reason: `${two} is the project itself` },
        { job_project: one, allowed: false, reason: `${one} is neither on the allowlist of ${two} nor in a group on it` },
      ],
      `svc: no: 1 of 2 projects in acme/platform may not reach ${two}: ${one}\n`,
    ]);
    // Its subgroups' projects, not the ones shared with it; the scope read once.
    expect(suite.requests().map((r) => `${r.rawPath}${r.rawQuery ? `?${r.rawQuery}` : ''}`)).toEqual([
      '/api/v4/projects/2/job_token_scope',
      '/api/v4/projects/2/job_token_scope/allowlist?per_page=100',
      '/api/v4/projects/2/job_token_scope/groups_allowlist?per_page=100',
      '/api/v4/projects/2',
      '/api/v4/groups/acme%2Fplatform/projects?include_subgroups=true&with_shared=false&per_page=100',
    ]);
  });

  it('refuses a developer, naming the maintainer role, and needs a target for add and remove', async () => {
    const developer = await addMember(suite, '/projects/3', 5, 30);
    const r = await suite.run(['job-token-scope', 'get', '3', '--sudo', developer]);
    expect(r).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/3/job_token_scope failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
    const none = await suite.run(['job-token-scope', 'add', '3']);
    expect(none).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give --project P or --group G\n' });
    expect(sent()).toEqual([]);
  });
});
