import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock.js';
import { onlyRequest, useSandbox } from './support.js';

// Jobs move on only when a test advances the clock: one created here has not ended until then.
const clock = new TestClock();
const suite = useSandbox({ projects: 6, clock: clock.now });

async function jobsOf(project: string, ref: string): Promise<Array<{ id: number; name: string }>> {
  const created = await suite.run(['pipeline', 'create', project, '--ref', ref, '-o', 'json']);
  const id = (JSON.parse(created.stdout) as { id: number }).id;
  const jobs = await suite.run(['jobs', 'list', project, '--pipeline', String(id), '-o', 'json', '--fields', 'id,name']);
  return JSON.parse(jobs.stdout) as Array<{ id: number; name: string }>;
}

describe('jobs retry and cancel', () => {
  it('retries a finished job as a new job and prints it', async () => {
    const result = await suite.run(['jobs', 'retry', '1', '2', '-o', 'json', '--fields', 'id,name,status']);
    expect(result.exitCode).toBe(0);
    const job = JSON.parse(result.stdout) as { id: number; name: string; status: string };
    expect(job.id).toBeGreaterThan(2);
    expect([job.name, job.status]).toEqual(['test', 'created']);
    expect(result.stderr).toBe(`job test runs again as job ${job.id} (created)\n`);
    expect(onlyRequest(suite, 'POST', /retry$/).rawPath).toBe('/api/v4/projects/1/jobs/2/retry');
  });

  it('says the service refuses to retry a job that has not ended (exit 4)', async () => {
    const [build] = await jobsOf('2', 'main');
    const result = await suite.run(['jobs', 'retry', '2', String(build!.id)]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(`svc: POST /projects/2/jobs/${build!.id}/retry failed: 403 Forbidden - Job is not retryable\n`);
  });

  it('cancels a job that has not ended; an ended one comes back unchanged (exit 0)', async () => {
    const [build] = await jobsOf('2', 'main');
    const result = await suite.run(['jobs', 'cancel', '2', String(build!.id), '--fields', 'id,status']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`id\tstatus\n${build!.id}\tcanceled\n`);
    expect(result.stderr).toBe(`job ${build!.id} is canceled\n`);
    const ended = await suite.run(['jobs', 'cancel', '2', '7', '--fields', 'id,status']);
    expect(ended.stdout).toBe('id\tstatus\n7\tsuccess\n');
    expect(ended.stderr).toBe('job 7 had already ended success; nothing to cancel\n');
  });
});

describe('jobs play', () => {
  it('starts a manual job with its variables as job_variables_attributes', async () => {
    const jobs = await jobsOf('3', 'v1.0.0');
    clock.advance(60_000);
    const deploy = jobs.find((j) => j.name === 'deploy')!;
    const before = await suite.run(['jobs', 'get', '3', String(deploy.id), '--fields', 'status']);
    expect(before.stdout).toBe('status\nmanual\n');
    const result = await suite.run([
      'jobs',
      'play',
      '3',
      String(deploy.id),
      '--var',
      'DEPLOY_ENV=production',
      '--var',
      'EMPTY=',
      '--fields',
      'id,status',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`id\tstatus\n${deploy.id}\tpending\n`);
    expect(result.stderr).toBe(`job ${deploy.id} (deploy) is pending\n`);
    expect(onlyRequest(suite, 'POST', /play$/).bodyJson).toEqual({
      job_variables_attributes: [
        { key: 'DEPLOY_ENV', value: 'production' },
        { key: 'EMPTY', value: '' },
      ],
    });
    clock.advance(60_000);
    const followed = await suite.run(['jobs', 'log', '3', String(deploy.id), '--follow', '--interval', '0.02']);
    expect(followed.exitCode).toBe(0);
  });

  it('says a job that is not manual cannot be played (exit 6), and refuses a bad --var before any request', async () => {
    const result = await suite.run(['jobs', 'play', '1', '1']);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toBe('svc: POST /projects/1/jobs/1/play failed: 400 Bad request - Unplayable Job\n');
    const bad = await suite.run(['jobs', 'play', '1', '1', '--var', 'NOEQUALS']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("svc: --var 'NOEQUALS': expected KEY=VALUE\n");
    expect(suite.requests()).toHaveLength(0);
  });
});
