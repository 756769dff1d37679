// Pipeline actions and job logs: service-endpoints.md §3 (latest, cancel, retry, delete) and §4 (trace, job cancel/retry).
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../support/clock.js';
import { useSandbox } from './setup.js';

// Jobs move on only when a test moves the clock: one just created is still active, however slow the machine.
const clock = new TestClock();
const c = useSandbox({ projects: 6, clock: clock.now });
const ESC = '\u001b';

async function pipeline(ref: string): Promise<{ id: number; status: string }> {
  const r = await c.call('/projects/1/pipeline', { as: 'user', method: 'POST', json: { ref } });
  expect(r.status).toBe(201);
  return r.json;
}

async function jobsOf(id: number, retried = false): Promise<Array<{ id: number; name: string; status: string; failure_reason?: string }>> {
  return (await c.call(`/projects/1/pipelines/${id}/jobs${retried ? '?include_retried=true' : ''}`, { as: 'user' })).json;
}

/** Moves the clock past the end of every job so far, and checks the pipeline ended. */
async function finished(id: number): Promise<void> {
  clock.advance(60_000);
  expect(['success', 'failed']).toContain((await c.call(`/projects/1/pipelines/${id}`, { as: 'user' })).json.status);
}

describe('§3 latest', () => {
  it('answers the newest pipeline of the ref', async () => {
    const first = await pipeline('develop');
    const second = await pipeline('develop');
    const r = await c.call('/projects/1/pipelines/latest?ref=develop', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json.id).toBe(second.id);
    expect(second.id).toBeGreaterThan(first.id);
  });

  it('takes the default branch without ref', async () => {
    const r = await c.call('/projects/1/pipelines/latest', { as: 'user' });
    expect(r.json.ref).toBe('main');
  });

  it('answers a ref without pipelines with 403 {"message":"403 Forbidden"}', async () => {
    const r = await c.call('/projects/1/pipelines/latest?ref=feature/search-v2', { as: 'user' });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });
});

describe('§3 cancel', () => {
  it('answers 200 with the pipeline canceled and its active jobs canceled', async () => {
    const p = await pipeline('main');
    const r = await c.call(`/projects/1/pipelines/${p.id}/cancel`, { as: 'user', method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('canceled');
    expect((await jobsOf(p.id)).map((j) => j.status)).toEqual(['canceled', 'canceled']);
  });

  it('answers a finished pipeline 200 unchanged', async () => {
    const r = await c.call('/projects/1/pipelines/1/cancel', { as: 'user', method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('success');
  });
});

describe('§3 retry', () => {
  it('answers 201; each failed job gets a new id and the old one is listed only with include_retried', async () => {
    const p = await pipeline('fail/broken-build');
    await finished(p.id);
    const before = await jobsOf(p.id);
    expect(before.map((j) => j.status)).toEqual(['success', 'failed']);
    const r = await c.call(`/projects/1/pipelines/${p.id}/retry`, { as: 'user', method: 'POST' });
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('created');
    const after = await jobsOf(p.id);
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(after[1]!.id).not.toBe(before[1]!.id);
    expect((await jobsOf(p.id, true)).map((j) => j.id)).toEqual([before[0]!.id, before[1]!.id, after[1]!.id]);
  });

  it('answers 201 when there is nothing to retry', async () => {
    const r = await c.call('/projects/1/pipelines/1/retry', { as: 'user', method: 'POST' });
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('success');
  });
});

describe('§3 delete', () => {
  it('refuses a maintainer with 403 and deletes for the owner with 204', async () => {
    const refused = await c.call('/projects/2/pipelines/4', { as: 'user', method: 'DELETE' });
    expect(refused.status).toBe(403);
    const r = await c.call('/projects/2/pipelines/4', { as: 'admin', method: 'DELETE' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await c.call('/projects/2/pipelines/4', { as: 'admin' })).json).toEqual({ message: '404 Not found' });
  });
});

describe('§4 trace', () => {
  it('is text/plain with Content-Disposition and Content-Length, runner markup kept', async () => {
    const r = await c.call('/projects/1/jobs/1/trace', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.headers['content-disposition']).toBe('infile; filename="1.log"');
    expect(r.headers['content-length']).toBe(String(r.buf.length));
    expect(r.text).toMatch(
      new RegExp(`^${ESC}\\[0KRunning with svc-sandbox-runner 17\\.5\\.0\\nsection_start:\\d+:prepare_executor\\r${ESC}\\[0K`),
    );
    expect(r.text.endsWith(`${ESC}[32;1mJob succeeded${ESC}[0;m\n`)).toBe(true);
  });

  it('ends each collapsible section at or after the time it started, in a job that ran a fraction of a second', async () => {
    const p = await pipeline('develop');
    await finished(p.id);
    const [build] = await jobsOf(p.id);
    const text = (await c.call(`/projects/1/jobs/${build!.id}/trace`, { as: 'user' })).text;
    const marks = (kind: string) =>
      new Map([...text.matchAll(new RegExp(`section_${kind}:(\\d+):(\\w+)`, 'g'))].map((m) => [m[2]!, Number(m[1])]));
    const starts = marks('start');
    const ends = marks('end');
    expect([...ends.keys()]).toEqual(['prepare_executor', 'step_script']);
    for (const [name, end] of ends) expect(end).toBeGreaterThanOrEqual(starts.get(name)!);
  });

  it('answers Range with the whole body and no Content-Range', async () => {
    const whole = await c.call('/projects/1/jobs/1/trace', { as: 'user' });
    const r = await c.call('/projects/1/jobs/1/trace', { as: 'user', headers: { Range: 'bytes=0-9' } });
    expect(r.status).toBe(200);
    expect(r.text).toBe(whole.text);
    expect(r.headers['content-range']).toBe(undefined);
  });

  it('grows while the job runs, and a failed job says why (failure_reason script_failure)', async () => {
    const p = await pipeline('fail/broken-build');
    const [, test] = await jobsOf(p.id);
    const seen: string[] = [];
    // Read the log every 10 ms of the job's time, from before it started until it failed (it runs 300 ms).
    for (let text = '', step = 0; step < 100 && !text.includes('ERROR: Job failed'); step++, clock.advance(10)) {
      text = (await c.call(`/projects/1/jobs/${test!.id}/trace`, { as: 'user' })).text;
      if (seen.at(-1) !== text) seen.push(text);
    }
    expect(seen.length).toBeGreaterThan(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.startsWith(seen[i - 1]!)).toBe(true);
    expect(seen[0]).toBe('');
    expect(seen.at(-1)).toContain(
      `FAIL  test/test/job-${test!.id}.test.ts > checks the build output\nAssertionError: expected 3 to be 4\n`,
    );
    const job = (await c.call(`/projects/1/jobs/${test!.id}`, { as: 'user' })).json;
    expect([job.status, job.failure_reason]).toEqual(['failed', 'script_failure']);
  });
});

describe('§4 job cancel and retry', () => {
  it('cancel answers 201 with the job; a finished job comes back unchanged', async () => {
    const p = await pipeline('main');
    const [build] = await jobsOf(p.id);
    const r = await c.call(`/projects/1/jobs/${build!.id}/cancel`, { as: 'user', method: 'POST' });
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('canceled');
    const done = await c.call('/projects/1/jobs/1/cancel', { as: 'user', method: 'POST' });
    expect([done.status, done.json.status]).toEqual([201, 'success']);
  });

  it('retry answers 201 with a new job, and 403 "Job is not retryable" while it runs', async () => {
    const p = await pipeline('main');
    const [build] = await jobsOf(p.id);
    const early = await c.call(`/projects/1/jobs/${build!.id}/retry`, { as: 'user', method: 'POST' });
    expect(early.status).toBe(403);
    expect(early.json).toEqual({ message: '403 Forbidden - Job is not retryable' });
    const r = await c.call('/projects/1/jobs/1/retry', { as: 'user', method: 'POST' });
    expect(r.status).toBe(201);
    expect(r.json.id).not.toBe(1);
    expect([r.json.name, r.json.status]).toEqual(['build', 'created']);
  });
});

describe('§4 play', () => {
  it('a tag pipeline has a manual job that does not hold the pipeline; play answers 200 and queues it', async () => {
    const p = await pipeline('v1.1.0');
    await finished(p.id);
    const jobs = await jobsOf(p.id);
    expect(jobs.map((j) => `${j.name} ${j.status}`)).toEqual(['build success', 'test success', 'deploy manual']);
    expect((await c.call(`/projects/1/pipelines/${p.id}`, { as: 'user' })).json.status).toBe('success');
    const deploy = jobs[2]!;
    const r = await c.call(`/projects/1/jobs/${deploy.id}/play`, {
      as: 'user',
      method: 'POST',
      json: { job_variables_attributes: [{ key: 'A', value: '1' }] },
    });
    expect(r.status).toBe(200);
    expect([r.json.id, r.json.status]).toEqual([deploy.id, 'pending']);
    expect((await c.call(`/projects/1/pipelines/${p.id}`, { as: 'user' })).json.status).toBe('pending');
  });

  it('answers a job that is not manual 400 {"message":"400 Bad request - Unplayable Job"}', async () => {
    const r = await c.call('/projects/1/jobs/1/play', { as: 'user', method: 'POST' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: '400 Bad request - Unplayable Job' });
  });

  it('requires key and value in job_variables_attributes', async () => {
    const r = await c.call('/projects/1/jobs/1/play', { as: 'user', method: 'POST', json: { job_variables_attributes: [{ key: 'A' }] } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'job_variables_attributes[0][value] is missing' });
  });
});
