// --events on the waits: stdout is NDJSON, one line per status change stamped with the clock the
// test drives (the sandbox's TestClock, which every poll steps), then the result line.
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { MERGE_CHECK_MS } from '../../src/sandbox/resources/merge-request-checks.js';
import { JOB_STEP_MS } from '../../src/sandbox/resources/job-states.js';
import { PIPELINE_POLL, TestClock } from '../support/clock.js';
import { apiCaller, useSandbox } from './support.js';

const clock = new TestClock();
const suite = useSandbox({ projects: 4, clock: clock.now });
beforeEach(() => clock.hold());
const withClock = { now: clock.now };
const at = (ms: number) => new Date(ms).toISOString();

const api = apiCaller(suite, (sandbox) => sandbox.tokens.admin);

const lines = (stdout: string) => stdout.split('\n').slice(0, -1);

describe('pipeline wait|create --events', () => {
  it('one line per status change, each stamped when it was seen, then the result with the record', async () => {
    const pipeline = await api('POST', '/projects/2/pipeline', { ref: 'main' });
    const start = clock.now();
    clock.stepPerRequest(suite.sandbox, PIPELINE_POLL, JOB_STEP_MS);
    const r = await suite.run(
      ['pipeline', 'wait', '2', String(pipeline.id), '--events', '--interval', '0.05', '--fields', 'id,status'],
      withClock,
    );
    expect(r.exitCode).toBe(0);
    const polls = suite.requests().filter((q) => q.method === 'GET').length;
    const event = (status: string, poll: number) =>
      `{"type":"pipeline","id":${pipeline.id},"status":"${status}","at":"${at(start + poll * JOB_STEP_MS)}"}`;
    expect(lines(r.stdout)).toEqual([
      // each poll moves the sandbox clock first: the pipeline created before the wait is pending at the first look
      event('pending', 1),
      event('running', 2),
      event('success', polls),
      `{"type":"result","exit_code":0,"record":{"id":${pipeline.id},"status":"success"}}`,
    ]);
    // stderr keeps its lines for people
    expect(r.stderr).toContain(`pipeline ${pipeline.id} succeeded: ${pipeline.web_url}\n`);
  });

  it('a failed tree: downstream lines name their parent and project; the result says why, exit 8', async () => {
    const target = await api('GET', '/projects/3');
    clock.stepPerRequest(suite.sandbox, PIPELINE_POLL, 10 * JOB_STEP_MS);
    const created = await suite.run(
      [
        'pipeline',
        'create',
        '1',
        '--ref',
        'main',
        '--var',
        `SANDBOX_DOWNSTREAM=${target.path_with_namespace}`,
        '--var',
        'SANDBOX_PIPELINE_RESULT=failed',
        '--wait',
        '--follow-downstream',
        '--events',
        '--interval',
        '0.05',
        '--wait-timeout',
        '20',
        '--fields',
        'status',
      ],
      { ...withClock, env: {} },
    );
    clock.hold();
    expect(created.exitCode).toBe(8);
    const events = lines(created.stdout).map((line) => JSON.parse(line));
    const root = events[0].id;
    const downstream = events.find((e) => e.type === 'downstream');
    expect(downstream).toMatchObject({ project_id: 3, parent_id: root });
    expect(Object.keys(downstream)).toEqual(['type', 'id', 'status', 'project_id', 'parent_id', 'at']);
    const ends = events.filter((e) => e.type !== 'result').map((e) => `${e.type} ${e.id} ${e.status}`);
    expect(ends).toContain(`downstream ${downstream.id} failed`);
    expect(ends.at(-1)).toMatch(/^(pipeline|downstream) \d+ (success|failed)$/);
    const result = events.at(-1);
    expect(result).toEqual({
      type: 'result',
      exit_code: 8,
      message: expect.stringContaining(`not successful: pipeline ${downstream.id} (downstream of ${root}, project 3) failed`),
      record: { status: result.record.status },
    });
    expect(created.stderr).toContain(`svc: ${result.message}\n`);
  });

  it('pipeline trigger --wait --events: the answer of the trigger is the first line, before any poll', async () => {
    const { token } = await api('POST', '/projects/2/triggers', { description: 'events' });
    const start = clock.now();
    clock.stepPerRequest(suite.sandbox, PIPELINE_POLL, JOB_STEP_MS);
    const r = await suite.run(
      ['pipeline', 'trigger', '2', '--ref', 'main', '--token', token, '--wait', '--events', '--interval', '0.05', '--fields', 'status'],
      { ...withClock, secrets: [token] },
    );
    expect(r.exitCode).toBe(0);
    const polls = suite.requests().filter((q) => q.method === 'GET').length;
    const id = JSON.parse(r.stdout.split('\n')[0]!).id as number;
    const event = (status: string, stamp: number) => `{"type":"pipeline","id":${id},"status":"${status}","at":"${at(stamp)}"}`;
    expect(lines(r.stdout)).toEqual([
      event('created', start),
      event('pending', start + JOB_STEP_MS),
      event('running', start + 2 * JOB_STEP_MS),
      event('success', start + polls * JOB_STEP_MS),
      '{"type":"result","exit_code":0,"record":{"status":"success"}}',
    ]);
  });

  it('--events without --wait is a usage error (exit 2, no request)', async () => {
    const r = await suite.run(['pipeline', 'create', '1', '--ref', 'main', '--events']);
    expect([r.exitCode, r.stderr]).toEqual([2, 'svc: --events only applies with --wait\n']);
    expect(suite.requests()).toEqual([]);
  });
});

describe('mr merge --auto --wait --events', () => {
  it('merge_request lines with the pipeline it waits for, then the merged record', async () => {
    const fork = await api('POST', '/projects/1/fork', { name: 'events-mr', path: 'events-mr' });
    const mr = await api('POST', `/projects/${fork.id}/merge_requests`, {
      title: 'x',
      source_branch: 'feature/login',
      target_branch: 'develop',
    });
    await delay(MERGE_CHECK_MS + 30);
    const pipeline = await api('POST', `/projects/${fork.id}/pipeline`, { ref: 'feature/login' });
    const start = clock.now();
    clock.stepPerRequest(suite.sandbox, 'GET /projects/:id/merge_requests/:merge_request_iid', JOB_STEP_MS);
    const r = await suite.run(
      ['mr', 'merge', String(fork.id), '1', '--auto', '--wait', '--events', '--interval', '0.05', '--fields', 'iid,state'],
      withClock,
    );
    expect(r.exitCode).toBe(0);
    const polls = suite.requests().filter((q) => q.method === 'GET').length;
    const event = (status: string, state: string, pipelineStatus: string, stamp: number) =>
      `{"type":"merge_request","id":${mr.id},"status":"${status}","iid":1,"state":"${state}",` +
      `"pipeline":{"id":${pipeline.id},"status":"${pipelineStatus}"},"at":"${at(stamp)}"}`;
    expect(lines(r.stdout)).toEqual([
      // the first status is the merge's own answer, before any poll
      event(`pipeline ${pipeline.id} created`, 'opened', 'created', start),
      event(`pipeline ${pipeline.id} pending`, 'opened', 'pending', start + JOB_STEP_MS),
      event(`pipeline ${pipeline.id} running`, 'opened', 'running', start + 2 * JOB_STEP_MS),
      event('merged', 'merged', 'success', start + polls * JOB_STEP_MS),
      '{"type":"result","exit_code":0,"record":{"iid":1,"state":"merged"}}',
    ]);
  });
});

describe('jobs log --follow --events', () => {
  it('job status lines and the log as log lines, then the result with the job', async () => {
    const pipeline = await api('POST', '/projects/2/pipeline', { ref: 'main' });
    const [build] = (await api('GET', `/projects/2/pipelines/${pipeline.id}/jobs`)).filter((j: { name: string }) => j.name === 'build');
    const start = clock.now();
    clock.stepPerRequest(suite.sandbox, 'GET /projects/:id/jobs/:job_id', JOB_STEP_MS);
    const r = await suite.run(['jobs', 'log', '2', String(build.id), '--follow', '--events', '--interval', '0.01'], withClock);
    expect(r.exitCode).toBe(0);
    const events = lines(r.stdout).map((line) => JSON.parse(line));
    const statuses = events.filter((e) => e.type === 'job');
    expect(statuses.map((e) => e.status)).toEqual(['pending', 'running', 'success']);
    expect(statuses.every((e) => e.id === build.id && e.at >= at(start))).toBe(true);
    const log = events
      .filter((e) => e.type === 'log')
      .map((e) => e.text)
      .join('');
    expect(log).toBe(
      (
        await (
          await fetch(`${suite.sandbox.url}/api/v4/projects/2/jobs/${build.id}/trace`, {
            headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
          })
        ).text()
      ).replace(/\u001b\[[0-9;]*[A-Za-z]|section_(start|end):\d+:[^\r]*\r/g, ''),
    );
    expect(events.at(-1)).toMatchObject({ type: 'result', exit_code: 0, record: { id: build.id, status: 'success' } });
    expect(Object.keys(events.at(-1))).toEqual(['type', 'exit_code', 'record']);
  });
});
