import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { JOB_STEP_MS } from '../../src/sandbox/resources/job-states.js';
import { PIPELINE_POLL, TestClock } from '../support/clock.js';
import { spawnSvc, tempDir } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

// Pipelines stand still unless a test lets each poll of a waiting command find them one job step further on.
const clock = new TestClock();
const suite = useSandbox({ projects: 6, clock: clock.now });
const stepPerPoll = () => clock.stepPerRequest(suite.sandbox, PIPELINE_POLL, JOB_STEP_MS);
beforeEach(() => clock.hold());
const encoded = (id: number) => suite.sandbox.state.project(id)!.fullPath.replace(/\//g, '%2F');

describe('pipeline create', () => {
  const dir = tempDir();
  const configFile = join(dir, 'deploy.yml');
  writeFileSync(configFile, 'replicas: 3\nregion: "eu"\n');

  it('sends variables as an array of hashes and waits for success (exit 0)', async () => {
    stepPerPoll();
    const path = suite.sandbox.state.project(1)!.fullPath;
    const result = await suite.run([
      'pipeline',
      'create',
      path,
      '--ref',
      'feature/login',
      '--var',
      'DEPLOY_ENV=staging',
      '--var',
      'EMPTY=',
      '--var',
      'EXPR=a=b',
      '--var-file',
      `CONFIG=${configFile}`,
      '--wait',
      '--interval',
      '0.05',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    const pipeline = JSON.parse(result.stdout) as { id: number; status: string; web_url: string };
    expect(pipeline.status).toBe('success');
    // Each poll finds the pipeline one step further on, so every status shows once, in order.
    expect(result.stderr).toBe(
      [
        `created pipeline ${pipeline.id} for feature/login: ${pipeline.web_url}`,
        ...['created', 'pending', 'running', 'success'].map((status) => `pipeline ${pipeline.id}: ${status}`),
        `pipeline ${pipeline.id} succeeded: ${pipeline.web_url}\n`,
      ].join('\n'),
    );
    const create = onlyRequest(suite, 'POST', /pipeline$/);
    expect(create.rawPath).toBe(`/api/v4/projects/${encoded(1)}/pipeline`);
    expect(create.headers['content-type']).toBe('application/json');
    expect(create.bodyJson).toEqual({
      ref: 'feature/login',
      variables: [
        { key: 'DEPLOY_ENV', value: 'staging' },
        { key: 'EMPTY', value: '' },
        { key: 'EXPR', value: 'a=b' },
        { key: 'CONFIG', value: 'replicas: 3\nregion: "eu"\n', variable_type: 'file' },
      ],
    });
    const polls = suite.requests().filter((r) => r.method === 'GET');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((r) => r.rawPath === `/api/v4/projects/${encoded(1)}/pipelines/${pipeline.id}`)).toBe(true);
  });

  it('prints the created pipeline without --wait', async () => {
    const result = await suite.run(['pipeline', 'create', '2', '--ref', 'main']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('id\tstatus\tref\tsha\tsource\tcreated_at\tweb_url');
    expect(result.stdout.split('\n')[1]).toMatch(/^\d+\tcreated\tmain\t/);
  });

  it('exits 8 with the final status and URL when the pipeline fails', async () => {
    stepPerPoll();
    const result = await suite.run([
      'pipeline',
      'create',
      '1',
      '--ref',
      'main',
      '--var',
      'SANDBOX_PIPELINE_RESULT=failed',
      '--wait',
      '--interval',
      '0.05',
    ]);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toMatch(/\tfailed\tmain\t/);
    expect(result.stderr).toMatch(/svc: pipeline \d+ ended failed: http:\/\/.+\/-\/pipelines\/\d+\n$/);
  });

  it('exits 8 when --wait-timeout passes first, saying the pipeline keeps running', async () => {
    const result = await suite.run(['pipeline', 'create', '1', '--ref', 'main', '--wait', '--interval', '0.05', '--wait-timeout', '0.05']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/svc: pipeline \d+ still created after [\d.]+ s; it keeps running: http/);
  });

  it('still takes the old --timeout after the verb as the wait deadline, with one line saying so (#11)', async () => {
    const result = await suite.run(['pipeline', 'create', '1', '--ref', 'main', '--wait', '--interval', '0.05', '--timeout', '0.05']);
    expect(result.exitCode).toBe(8);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('svc: warning: --timeout after `create` is now --wait-timeout; the old spelling will be removed');
    expect(lines[lines.length - 1]).toMatch(/^svc: pipeline \d+ still created after [\d.]+ s; it keeps running: http/);
  });

  it('refuses a bad --var or an unreadable --var-file before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['--var', 'NOEQUALS'], "svc: --var 'NOEQUALS': expected KEY=VALUE\n"],
      [['--var', '=value'], "svc: --var '=value': expected KEY=VALUE\n"],
      [['--var-file', 'CONFIG'], "svc: --var-file 'CONFIG': expected KEY=PATH\n"],
      [['--var-file', `CONFIG=${join(dir, 'nope.yml')}`], `svc: --var-file ${join(dir, 'nope.yml')}: no such file\n`],
      [['--var-file', `CONFIG=${dir}`], `svc: --var-file ${dir}: is a directory, not a file\n`],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['pipeline', 'create', '1', '--ref', 'main', ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(message);
      // Nothing was created (a poll the previous test abandoned at its deadline may still land).
      expect(suite.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    }
    const noRef = await suite.run(['pipeline', 'create', '1']);
    expect(noRef.exitCode).toBe(2);
  });

  it('renders service refusals: unknown ref 6, unknown project 5, job token 3', async () => {
    const badRef = await suite.run(['pipeline', 'create', '1', '--ref', 'no-such-branch']);
    expect(badRef.exitCode).toBe(6);
    expect(badRef.stderr).toBe('svc: POST /projects/1/pipeline failed: 400 Bad Request: Reference not found\n');
    const noProject = await suite.run(['pipeline', 'create', 'nobody/nothing', '--ref', 'main']);
    expect(noProject.exitCode).toBe(5);
    const job = await suite.run(['pipeline', 'create', '2', '--ref', 'main'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(job.exitCode).toBe(3);
    expect(job.stderr).toContain('job tokens are accepted only on some endpoints');
  });
});

describe('pipeline get and wait', () => {
  it('shows a pipeline in every format', async () => {
    const json = await suite.run(['pipeline', 'get', suite.sandbox.state.project(2)!.fullPath, '4', '-o', 'json']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 4, project_id: 2 });
    expect(onlyRequest(suite, 'GET', /pipelines/).rawPath).toBe(`/api/v4/projects/${encoded(2)}/pipelines/4`);
    const ndjson = await suite.run(['pipeline', 'get', '2', '4', '-o', 'ndjson', '--fields', 'id,status']);
    expect(JSON.parse(ndjson.stdout)).toEqual({ id: 4, status: expect.stringMatching(/^(success|failed)$/) });
    const tsv = await suite.run(['pipeline', 'get', '2', '4', '--fields', 'id,ref']);
    expect(tsv.stdout).toBe('id\tref\n4\tmain\n');
  });

  it('exits 5 for a pipeline of another project and 2 for a bad id', async () => {
    const other = await suite.run(['pipeline', 'get', '1', '4']);
    expect(other.exitCode).toBe(5);
    expect(other.stderr).toBe('svc: GET /projects/1/pipelines/4 failed: 404 Not found\n');
    const bad = await suite.run(['pipeline', 'get', '1', 'latest']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("svc: invalid pipeline id 'latest': expected a positive whole number\n");
  });

  it('waits for an existing pipeline: 0 on success, 8 on a finished failure', async () => {
    stepPerPoll();
    const created = await suite.run(['pipeline', 'create', '3', '--ref', 'main', '-o', 'json']);
    const id = String((JSON.parse(created.stdout) as { id: number }).id);
    const waited = await suite.run(['pipeline', 'wait', '3', id, '--interval', '0.05', '--fields', 'status']);
    expect(waited.exitCode).toBe(0);
    expect(waited.stdout).toBe('status\nsuccess\n');
    const failing = await suite.run(['pipeline', 'create', '3', '--ref', 'fail/broken-build', '-o', 'json']);
    const failingId = String((JSON.parse(failing.stdout) as { id: number }).id);
    const failed = await suite.run(['pipeline', 'wait', '3', failingId, '--interval', '0.05']);
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toContain(`svc: pipeline ${failingId} ended failed`);
  });

  it('exits 130 on Ctrl-C with a note that the pipeline keeps running', async () => {
    const child = spawnSvc(['pipeline', 'create', '1', '--ref', 'main', '--wait', '--interval', '30'], {
      env: sandboxEnv(suite.sandbox),
    });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/pipeline \d+: created/.test(stderr)) resolve();
      });
    });
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stdout)).toBe('');
    expect(String(result.stderr)).toMatch(/svc: interrupted; pipeline \d+ keeps running on the server: http:\/\/\S+\/pipelines\/\d+\n$/);
  });
});
