import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 6 });

describe('jobs list', () => {
  it("lists a project's jobs newest first with the default columns", async () => {
    const result = await suite.run(['jobs', 'list', '1']);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tname\tstage\tstatus\tref\tpipeline.id\tcreated_at');
    expect(lines.slice(1).map((line) => line.split('\t').slice(0, 3).join(' '))).toEqual([
      '6 test test',
      '5 build build',
      '4 test test',
      '3 build build',
      '2 test test',
      '1 build build',
    ]);
    const request = onlyRequest(suite, 'GET', /jobs/);
    expect(`${request.rawPath}?${request.rawQuery}`).toBe('/api/v4/projects/1/jobs?per_page=100');
  });

  it('sends --scope as scope[] and --include-retried, and lists one pipeline with --pipeline', async () => {
    const failedOnly = await suite.run(['jobs', 'list', '1', '--pipeline', '2', '--scope', 'failed,canceled', '--include-retried']);
    expect(failedOnly.exitCode).toBe(0);
    const request = onlyRequest(suite, 'GET', /jobs/);
    expect(request.rawPath).toBe('/api/v4/projects/1/pipelines/2/jobs');
    expect(decodeURIComponent(request.rawQuery)).toBe('scope[]=failed&scope[]=canceled&include_retried=true&per_page=100');
    const all = await suite.run(['jobs', 'list', '1', '--pipeline', '2', '-o', 'json', '--fields', 'id,status']);
    const jobs = JSON.parse(all.stdout) as Array<{ id: number; status: string }>;
    expect(jobs.map((j) => j.id)).toEqual([3, 4]);
    const expected = jobs.filter((j) => j.status === 'failed').map((j) => `${j.id}\n`);
    const ids = await suite.run(['jobs', 'list', '1', '--pipeline', '2', '--scope', 'failed', '--fields', 'id']);
    expect(ids.stdout).toBe(`id\n${expected.join('')}`);
  });

  it('refuses a scope that is not a job status before any request (exit 2)', async () => {
    const result = await suite.run(['jobs', 'list', '1', '--scope', 'failed,broken']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'svc: --scope broken: not a job status; one of created, waiting_for_resource, preparing, waiting_for_callback, pending, running, success, failed, canceling, canceled, skipped, manual, scheduled\n',
    );
    expect(suite.requests()).toHaveLength(0);
  });
});

describe('jobs get', () => {
  it('shows one job; a failed one with its failure reason', async () => {
    const created = await suite.run([
      'pipeline',
      'create',
      '3',
      '--ref',
      'fail/broken-build',
      '--wait',
      '--interval',
      '0.05',
      '-o',
      'json',
    ]);
    expect(created.exitCode).toBe(8);
    const pipeline = (JSON.parse(created.stdout) as { id: number }).id;
    const jobs = await suite.run(['jobs', 'list', '3', '--pipeline', String(pipeline), '-o', 'json', '--fields', 'id']);
    const [, test] = JSON.parse(jobs.stdout) as Array<{ id: number }>;
    const result = await suite.run(['jobs', 'get', '3', String(test!.id), '--fields', 'id,name,status,pipeline.id,failure_reason']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`id\tname\tstatus\tpipeline.id\tfailure_reason\n${test!.id}\ttest\tfailed\t${pipeline}\tscript_failure\n`);
    expect(onlyRequest(suite, 'GET', /jobs/).rawPath).toBe(`/api/v4/projects/3/jobs/${test!.id}`);
  });

  it('exits 5 for a job of another project and 2 for a bad id', async () => {
    const other = await suite.run(['jobs', 'get', '2', '1']);
    expect(other.exitCode).toBe(5);
    expect(other.stderr).toBe('svc: GET /projects/2/jobs/1 failed: 404 Not found\n');
    const bad = await suite.run(['jobs', 'get', '2', 'x']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("svc: invalid job id 'x': expected a positive whole number\n");
  });
});

describe('jobs list --fields', () => {
  it('warns only about a field no job printed has, once the listing is done', async () => {
    const some = await suite.run(['jobs', 'list', '2', '--limit', '3', '-o', 'tsv', '--fields', 'id,artifacts_file.size']);
    expect(some).toEqual({ exitCode: 0, stdout: 'id\tartifacts_file.size\n12\t\n11\t245760\n10\t\n', stderr: '' });
    const none = await suite.run([
      'jobs',
      'list',
      '2',
      '--limit',
      '3',
      '-o',
      'ndjson',
      '--fields',
      'id,artifacts_file.sise,artifacts_file.size',
    ]);
    expect(none).toEqual({
      exitCode: 0,
      stdout: [
        '{"id":12,"artifacts_file":{"sise":null,"size":null}}',
        '{"id":11,"artifacts_file":{"sise":null,"size":245760}}',
        '{"id":10,"artifacts_file":{"sise":null,"size":null}}',
        '',
      ].join('\n'),
      stderr: "warning: no field 'artifacts_file.sise' in the records (printed as empty)\n",
    });
  });
});
