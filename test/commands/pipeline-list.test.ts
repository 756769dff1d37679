import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { onlyRequest, useSandbox } from './support.js';

// Pipelines move on only when a test moves the clock: one just created is still running, however slow the machine.
const clock = new TestClock();
const suite = useSandbox({ projects: 6, clock: clock.now });

async function created(project: string, ref: string): Promise<{ id: number; status: string }> {
  const result = await suite.run(['pipeline', 'create', project, '--ref', ref, '-o', 'json']);
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as { id: number; status: string };
}

async function ended(project: string, id: number): Promise<void> {
  clock.advance(60_000);
  const result = await suite.run(['pipeline', 'wait', project, String(id), '--interval', '0.05']);
  expect([0, 8]).toContain(result.exitCode);
}

describe('pipeline list', () => {
  it('sends every filter under the service name and prints the default columns', async () => {
    const result = await suite.run([
      'pipeline',
      'list',
      '1',
      '--status',
      'success',
      '--scope',
      'finished',
      '--ref',
      'main',
      '--source',
      'push',
      '--order-by',
      'updated_at',
      '--sort',
      'asc',
      '--updated-after',
      '2000-01-01T00:00:00Z',
      '--updated-before',
      '2100-01-01T00:00:00Z',
    ]);
    expect(result.exitCode).toBe(0);
    const request = onlyRequest(suite, 'GET', /pipelines/);
    expect(request.rawPath).toBe('/api/v4/projects/1/pipelines');
    expect(Object.fromEntries(new URLSearchParams(request.rawQuery))).toEqual({
      status: 'success',
      scope: 'finished',
      ref: 'main',
      source: 'push',
      order_by: 'updated_at',
      sort: 'asc',
      updated_after: '2000-01-01T00:00:00Z',
      updated_before: '2100-01-01T00:00:00Z',
      per_page: '100',
    });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tstatus\tref\tsha\tsource\tcreated_at');
    const seeded = [1, 2, 3].filter((id) => lines.some((line) => line.startsWith(`${id}\tsuccess\tmain\t`)));
    expect(lines.length - 1).toBe(seeded.length);
  });

  it('refuses a status or scope the service does not know, before any request (exit 2)', async () => {
    const status = await suite.run(['pipeline', 'list', '1', '--status', 'passed']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain("argument 'passed' is invalid. Allowed choices are created, waiting_for_resource");
    const scope = await suite.run(['pipeline', 'list', '1', '--scope', 'done']);
    expect(scope.exitCode).toBe(2);
    expect(suite.requests()).toHaveLength(0);
  });

  it('filters by sha and username as the service does', async () => {
    const pipeline = (await created('4', 'develop')) as unknown as { id: number; sha: string };
    const byUser = await suite.run(['pipeline', 'list', '4', '--username', 'root', '-o', 'json', '--fields', 'id,ref']);
    expect(JSON.parse(byUser.stdout)).toEqual([{ id: pipeline.id, ref: 'develop' }]);
    const bySha = await suite.run(['pipeline', 'list', '4', '--sha', pipeline.sha, '-o', 'json', '--fields', 'id']);
    expect(JSON.parse(bySha.stdout)).toEqual([{ id: pipeline.id }]);
    expect(onlyRequest(suite, 'GET', /pipelines/).rawQuery).toBe(`sha=${pipeline.sha}&per_page=100`);
  });

  it('filters by the name a pipeline was given, sent as typed', async () => {
    const pipeline = (await created('4', 'develop')) as unknown as { id: number };
    const named = await fetch(`${suite.sandbox.url}/api/v4/projects/4/pipelines/${pipeline.id}/metadata`, {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nightly & weekly' }),
    });
    expect(named.status).toBe(200);
    const byName = await suite.run(['pipeline', 'list', '4', '--name', 'Nightly & weekly', '-o', 'json', '--fields', 'id,name']);
    expect([byName.exitCode, JSON.parse(byName.stdout)]).toEqual([0, [{ id: pipeline.id, name: 'Nightly & weekly' }]]);
    expect(onlyRequest(suite, 'GET', /pipelines/).rawQuery).toBe('name=Nightly%20%26%20weekly&per_page=100');
  });
});

describe('pipeline get --latest', () => {
  it('shows the newest pipeline of the ref, of main without --ref', async () => {
    const pipeline = await created('3', 'develop');
    const latest = await suite.run(['pipeline', 'get', '3', '--latest', '--ref', 'develop', '--fields', 'id,ref']);
    expect(latest.exitCode).toBe(0);
    expect(latest.stdout).toBe(`id\tref\n${pipeline.id}\tdevelop\n`);
    expect(onlyRequest(suite, 'GET', /latest/).rawQuery).toBe('ref=develop');
    const main = await suite.run(['pipeline', 'get', '3', '--latest', '--fields', 'id,ref']);
    expect(main.stdout).toBe('id\tref\n9\tmain\n');
    expect(onlyRequest(suite, 'GET', /latest/).rawQuery).toBe('');
  });

  it('says there is no pipeline for the ref (exit 5) where the service answers 403', async () => {
    const result = await suite.run(['pipeline', 'get', '3', '--latest', '--ref', 'feature/search-v2']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe('svc: no pipeline for ref feature/search-v2 in project 3\n');
  });

  it('refuses an id with --latest, neither, and --ref without --latest (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['3', '7', '--latest'], 'svc: give a pipeline id or --latest, not both\n'],
      [['3'], 'svc: give a pipeline id, or --latest for the newest pipeline of a ref\n'],
      [['3', '7', '--ref', 'main'], 'svc: --ref applies only with --latest\n'],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['pipeline', 'get', ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(message);
    }
    expect(suite.requests()).toHaveLength(0);
  });
});

describe('pipeline cancel, retry and delete', () => {
  it('cancels a running pipeline; a finished one comes back unchanged (exit 0 both)', async () => {
    const pipeline = await created('5', 'main');
    const cancel = await suite.run(['pipeline', 'cancel', '5', String(pipeline.id), '--fields', 'id,status']);
    expect(cancel.exitCode).toBe(0);
    expect(cancel.stdout).toBe(`id\tstatus\n${pipeline.id}\tcanceled\n`);
    expect(cancel.stderr).toBe(`pipeline ${pipeline.id} is canceled\n`);
    expect(onlyRequest(suite, 'POST', /cancel$/).rawPath).toBe(`/api/v4/projects/5/pipelines/${pipeline.id}/cancel`);
    const finished = await suite.run(['pipeline', 'cancel', '5', '13', '--fields', 'id,status']);
    expect(finished.exitCode).toBe(0);
    expect(finished.stdout).toBe('id\tstatus\n13\tsuccess\n');
    expect(finished.stderr).toBe('pipeline 13 had already ended success; nothing to cancel\n');
  });

  it('retries the failed job of a pipeline with a new job id and the old one marked retried', async () => {
    const pipeline = await created('5', 'fail/broken-build');
    await ended('5', pipeline.id);
    const before = await suite.run(['jobs', 'list', '5', '--pipeline', String(pipeline.id), '-o', 'json', '--fields', 'id,name,status']);
    const [build, test] = JSON.parse(before.stdout) as Array<{ id: number; name: string; status: string }>;
    expect([build!.status, test!.status]).toEqual(['success', 'failed']);
    const retry = await suite.run(['pipeline', 'retry', '5', String(pipeline.id), '--fields', 'id,status']);
    expect(retry.exitCode).toBe(0);
    expect(retry.stdout).toBe(`id\tstatus\n${pipeline.id}\tcreated\n`);
    expect(retry.stderr).toBe(`pipeline ${pipeline.id} is created again\n`);
    const after = await suite.run(['jobs', 'list', '5', '--pipeline', String(pipeline.id), '-o', 'json', '--fields', 'id,name']);
    const jobs = JSON.parse(after.stdout) as Array<{ id: number; name: string }>;
    expect(jobs.map((j) => j.name)).toEqual(['build', 'test']);
    expect(jobs[0]!.id).toBe(build!.id);
    expect(jobs[1]!.id).toBeGreaterThan(test!.id);
    const withRetried = await suite.run([
      'jobs',
      'list',
      '5',
      '--pipeline',
      String(pipeline.id),
      '--include-retried',
      '-o',
      'json',
      '--fields',
      'id',
    ]);
    expect(JSON.parse(withRetried.stdout)).toEqual([{ id: build!.id }, { id: test!.id }, { id: jobs[1]!.id }]);
  });

  it('says when a pipeline had nothing to retry', async () => {
    const retry = await suite.run(['pipeline', 'retry', '5', '13', '--fields', 'status']);
    expect(retry.exitCode).toBe(0);
    expect(retry.stderr).toBe('pipeline 13 is success; it had no failed or canceled job to retry\n');
  });

  it('deletes as an owner (204, nothing on stdout); a maintainer is refused with exit 4', async () => {
    const refused = await suite.run(['pipeline', 'delete', '2', '5', '--yes'], { token: suite.sandbox.tokens.user });
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toBe(
      'svc: DELETE /projects/2/pipelines/5 failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    );
    const deleted = await suite.run(['pipeline', 'delete', '2', '5', '--yes']);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toBe('deleted pipeline 5\n');
    expect(onlyRequest(suite, 'DELETE', /pipelines/).rawPath).toBe('/api/v4/projects/2/pipelines/5');
    const gone = await suite.run(['pipeline', 'get', '2', '5']);
    expect(gone.exitCode).toBe(5);
  });
});
