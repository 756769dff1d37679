// Keeping, deleting and erasing artifacts: service-endpoints.md §4 (`POST …/artifacts/keep` → 200 Job,
// `DELETE …/jobs/:job_id/artifacts` → 204, `DELETE /projects/:id/artifacts` → 202, `POST …/erase` → 201
// Job or `403 Job is not erasable!`), lib/api/ci/job_artifacts.rb and jobs.rb.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 4 });
const sudo = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });

describe('POST …/jobs/:job_id/artifacts/keep', () => {
  it('answers 200 with the Job for a job with artifacts, 404 Not Found for one without, 404 Not found for none', async () => {
    const kept = await c.call('/projects/2/jobs/7/artifacts/keep', { as: 'user', method: 'POST' });
    expect([kept.status, kept.json.id, kept.json.artifacts_expire_at, kept.json.artifacts_file]).toEqual([
      200,
      7,
      null,
      { filename: 'artifacts.zip', size: kept.json.artifacts_file.size },
    ]);
    const none = await c.call('/projects/2/jobs/8/artifacts/keep', { as: 'user', method: 'POST' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not Found' }]);
    const unknown = await c.call('/projects/2/jobs/999/artifacts/keep', { as: 'user', method: 'POST' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('DELETE …/jobs/:job_id/artifacts and DELETE /projects/:id/artifacts', () => {
  it('deletes one job’s artifacts (204): the job shows none and its archive is 404', async () => {
    const gone = await c.call('/projects/2/jobs/9/artifacts', { as: 'user', method: 'DELETE' });
    expect([gone.status, gone.text]).toEqual([204, '']);
    const job = await c.call('/projects/2/jobs/9', { as: 'user' });
    expect([job.json.artifacts, 'artifacts_file' in job.json]).toEqual([[], false]);
    const archive = await c.call('/projects/2/jobs/9/artifacts', { as: 'user' });
    expect([archive.status, archive.json]).toEqual([404, { message: '404 Not Found' }]);
  });

  it('deletes every job’s artifacts of a project (202 Accepted); a developer may do neither (403)', async () => {
    const added = await c.call('/projects/3/members', { as: 'admin', method: 'POST', json: { user_id: 11, access_level: 30 } });
    expect(added.status).toBe(201);
    const dev = added.json.username as string;
    const refused = await c.call('/projects/3/artifacts', { ...sudo(dev), method: 'DELETE' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await c.call('/projects/3/jobs/13/artifacts', { ...sudo(dev), method: 'DELETE' })).status).toBe(403);
    const accepted = await c.call('/projects/3/artifacts', { as: 'admin', method: 'DELETE' });
    expect([accepted.status, accepted.json]).toEqual([202, { message: '202 Accepted' }]);
    for (const id of [13, 15, 17]) {
      expect((await c.call(`/projects/3/jobs/${id}/artifacts`, { as: 'admin' })).status).toBe(404);
    }
  });
});

describe('POST …/jobs/:job_id/erase', () => {
  it('erases a finished job (201): erased_at set, no artifacts, an empty log; a second erase is 403 Job is not erasable!', async () => {
    const erased = await c.call('/projects/2/jobs/11/erase', { as: 'user', method: 'POST' });
    expect(erased.status).toBe(201);
    expect([erased.json.id, erased.json.status, typeof erased.json.erased_at, erased.json.artifacts]).toEqual([
      11,
      'success',
      'string',
      [],
    ]);
    const trace = await c.call('/projects/2/jobs/11/trace', { as: 'user' });
    expect([trace.status, trace.text]).toEqual([200, '']);
    const again = await c.call('/projects/2/jobs/11/erase', { as: 'user', method: 'POST' });
    expect([again.status, again.json]).toEqual([403, { message: '403 Forbidden - Job is not erasable!' }]);
  });

  it('a developer erases the jobs of their own pipelines only', async () => {
    const added = await c.call('/projects/2/members', { as: 'admin', method: 'POST', json: { user_id: 10, access_level: 30 } });
    expect(added.status).toBe(201);
    const dev = added.json.username as string;
    const others = await c.call('/projects/2/jobs/12/erase', { ...sudo(dev), method: 'POST' });
    expect([others.status, others.json]).toEqual([403, { message: '403 Forbidden' }]);
    const mine = await c.call('/projects/2/pipeline', { ...sudo(dev), method: 'POST', json: { ref: 'main' } });
    const [job] = (await c.call(`/projects/2/pipelines/${mine.json.id}/jobs`, { as: 'admin' })).json;
    const running = await c.call(`/projects/2/jobs/${job.id}/erase`, { ...sudo(dev), method: 'POST' });
    expect([running.status, running.json]).toEqual([403, { message: '403 Forbidden - Job is not erasable!' }]);
  });
});
