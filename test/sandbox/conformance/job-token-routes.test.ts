// Where a CI job token is a credential: ../shared/reference/service-behaviour.md §4.5 "Job token allowed
// endpoints" (from the service's doc/ci/jobs/ci_job_token.md), with the routes service-endpoints.md marks
// "job token" (§1 issues, §1 notes: "Job token may read MR notes, not issue notes", §2 merge requests,
// §3 pipelines and trigger, §4 `GET /job` and artifacts, §6 releases, §7 branches, tags, commits, raw files).
// A route outside that list answers the token `401 {"message":"401 Unauthorized"}` (§4.1: "Accepted only
// on routes marked job_token_allowed"); on a listed route, a project other than the job's is refused with
// §4.5's 403. The job (fixtures.jobId) runs in project 2 as jdoe. The sandbox's choices: src/sandbox/README.md.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const asJob = (path: string, method = 'GET', json?: Record<string, unknown>) =>
  c.call(path, { method, json, headers: { 'JOB-TOKEN': c.sb.tokens.job } });

const ALLOWED: Array<[string, string, number]> = [
  ['GET', '/projects/2/issues', 200],
  ['GET', '/projects/2/issues/1', 200],
  ['GET', '/projects/2/merge_requests', 200],
  ['GET', '/projects/2/merge_requests/1', 200],
  ['GET', '/projects/2/merge_requests/1/notes', 200],
  ['GET', '/projects/2/pipelines', 200],
  ['GET', '/projects/2/pipelines/4', 200],
  ['GET', '/projects/2/pipelines/4/jobs', 200],
  ['GET', '/job', 200],
  ['GET', '/projects/2/jobs/7/artifacts', 302],
  ['GET', '/projects/2/jobs/artifacts/main/download?job=build', 302],
  ['GET', '/projects/2/releases', 200],
  ['GET', '/projects/2/repository/branches', 200],
  ['GET', '/projects/2/repository/tags', 200],
  ['GET', '/projects/2/repository/commits/main', 200],
  ['GET', '/projects/2/repository/files/README.md/raw?ref=main', 200],
  ['GET', '/projects/2/environments', 200],
  ['GET', '/projects/2/deployments', 200],
  ['GET', '/projects/2/packages', 200],
  // Not on the reference's list; the sandbox's choice (README "Job tokens"): CI jobs post and read statuses.
  ['POST', '/projects/2/statuses/main?state=pending&name=job-token-check', 201],
  ['GET', '/projects/2/repository/commits/main/statuses', 200],
];

const REFUSED: Array<[string, string]> = [
  ['GET', '/projects/2'],
  ['GET', '/projects/2/issues/1/notes'],
  ['GET', '/projects/2/jobs'],
  ['GET', '/projects/2/repository/tree'],
  ['GET', '/projects/2/repository/compare?from=main&to=develop'],
];

describe('§4.5 job token allowed endpoints', () => {
  it.each(ALLOWED)('%s %s answers the job token %i', async (method, path, status) => {
    const r = await asJob(path, method);
    expect(r.status).toBe(status);
  });

  it('POST …/trigger/pipeline takes the job token as `token` (§3 Trigger) and makes a `pipeline` pipeline', async () => {
    const r = await c.call('/projects/2/trigger/pipeline', { method: 'POST', json: { token: c.sb.tokens.job, ref: 'main' } });
    expect([r.status, r.json.source]).toEqual([201, 'pipeline']);
  });

  it.each(REFUSED)('%s %s is not on the list: 401', async (method, path) => {
    const r = await asJob(path, method);
    expect([r.status, r.json]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it('a listed route on another project: 403 naming both projects', async () => {
    const own = await c.call('/projects/2', { as: 'admin' });
    const other = await c.call('/projects/4', { as: 'admin' });
    const r = await asJob('/projects/4/issues');
    expect([r.status, r.json]).toEqual([
      403,
      {
        message: `403 Forbidden - Authentication by CI/CD job token not allowed from ${own.json.path_with_namespace} to ${other.json.path_with_namespace}.`,
      },
    ]);
  });
});
