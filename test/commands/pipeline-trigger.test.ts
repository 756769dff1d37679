import { beforeAll, describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 6 });
let token: string;

const fullPath = (id: number) => suite.sandbox.state.project(id)!.fullPath;
const encoded = (id: number) => fullPath(id).replace(/\//g, '%2F');

beforeAll(async () => {
  const res = await fetch(`${suite.sandbox.url}/api/v4/projects/2/triggers`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.user, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'deploy' }),
  });
  token = ((await res.json()) as { token: string }).token;
});

describe('pipeline trigger', () => {
  it('sends the token, ref and variables as a hash in the body, without credentials, and prints the pipeline', async () => {
    const result = await suite.run(
      [
        'pipeline',
        'trigger',
        fullPath(2),
        '--ref',
        'main',
        '--token',
        token,
        '--var',
        'A=1',
        '--var',
        'B=x=y',
        '--fields',
        'status,source',
      ],
      { secrets: [token] },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('status\tsource\ncreated\ttrigger\n');
    expect(result.stderr).toMatch(/^triggered pipeline \d+ for main: http:\/\/\S+\/-\/pipelines\/\d+\n$/);
    const sent = onlyRequest(suite, 'POST', /trigger\/pipeline$/);
    expect(sent.rawPath).toBe(`/api/v4/projects/${encoded(2)}/trigger/pipeline`);
    expect(sent.rawQuery).toBe('');
    expect(sent.bodyJson).toEqual({ token, ref: 'main', variables: { A: '1', B: 'x=y' } });
    expect(Object.keys(sent.headers).filter((name) => /token|authorization/i.test(name))).toEqual([]);
  });

  it('takes the token from SVC_TRIGGER_TOKEN (never shown, --debug included), else CI_JOB_TOKEN (source pipeline)', async () => {
    const fromEnv = await suite.run(['pipeline', 'trigger', '2', '--ref', 'main', '--fields', 'source', '--debug'], {
      env: { SVC_TRIGGER_TOKEN: token, CI_JOB_TOKEN: suite.sandbox.tokens.job },
      secrets: [token],
    });
    expect(fromEnv.exitCode).toBe(0);
    expect(fromEnv.stdout).toBe('source\ntrigger\n');
    expect(onlyRequest(suite, 'POST', /trigger/).bodyJson).toEqual({ token, ref: 'main' });
    const fromJob = await suite.run(['pipeline', 'trigger', '2', '--ref', 'main', '--fields', 'source'], {
      env: { CI_JOB_TOKEN: suite.sandbox.tokens.job },
    });
    expect(fromJob.exitCode).toBe(0);
    expect(fromJob.stdout).toBe('source\npipeline\n');
  });

  it("a --token before the noun is the run's credential; after the verb it is the trigger token", async () => {
    const fromEnv = await suite.run(
      ['--token', suite.sandbox.tokens.user, 'pipeline', 'trigger', '2', '--ref', 'main', '--fields', 'source'],
      {
        env: { SVC_TRIGGER_TOKEN: token },
        secrets: [token],
      },
    );
    expect([fromEnv.exitCode, fromEnv.stdout]).toEqual([0, 'source\ntrigger\n']);
    expect(onlyRequest(suite, 'POST', /trigger/).bodyJson).toEqual({ token, ref: 'main' });
    const both = await suite.run(
      ['--token', suite.sandbox.tokens.user, 'pipeline', 'trigger', '2', '--ref', 'main', '--token=' + token, '--fields', 'source'],
      { secrets: [token] },
    );
    expect([both.exitCode, both.stdout]).toEqual([0, 'source\ntrigger\n']);
    expect(onlyRequest(suite, 'POST', /trigger/).bodyJson).toEqual({ token, ref: 'main' });
  });

  it('--wait follows the tree with the run credentials, not the trigger token, and shows the failed job', async () => {
    const result = await suite.run(
      [
        'pipeline',
        'trigger',
        '2',
        '--ref',
        'main',
        '--token',
        token,
        '--var',
        'SANDBOX_DOWNSTREAM=child',
        '--var',
        'SANDBOX_PIPELINE_RESULT=failed',
        '--wait',
        '--follow-downstream',
        '--log-failed=1',
        '--interval',
        '0.05',
        '--fields',
        'status',
      ],
      { secrets: [token] },
    );
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('status\nfailed\n');
    expect(result.stderr).toMatch(/\nfailed job \d+ in pipeline \d+ \(child of \d+\): stage test, name test, reason script_failure\n/);
    expect(result.stderr).toContain('\nERROR: Job failed: exit code 1\nsvc: pipeline ');
    const reads = suite.requests().filter((r) => r.method === 'GET');
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.every((r) => r.headers['private-token'] === suite.sandbox.tokens.admin)).toBe(true);
  });

  it('says which project refused the token (exit 5) and that a token is needed (exit 2), never printing it', async () => {
    const refused = await suite.run(['pipeline', 'trigger', '1', '--ref', 'main', '--token', token, '--debug'], { secrets: [token] });
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr.split('\n').at(-2)).toBe(
      'svc: project 1 did not take the trigger token (unknown project, or a token it does not accept): 404',
    );
    const none = await suite.run(['pipeline', 'trigger', '1', '--ref', 'main']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(
      'svc: no trigger token: pass --token (or --trigger-token) after the verb, set SVC_TRIGGER_TOKEN, or run in a CI job (CI_JOB_TOKEN)\n',
    );
    const before = await suite.run(['--token', suite.sandbox.tokens.admin, 'pipeline', 'trigger', '1', '--ref', 'main']);
    expect([before.exitCode, before.stdout, before.stderr]).toEqual([
      2,
      '',
      'svc: no trigger token: a --token before `pipeline` is the access token; give the trigger token after the verb (--token or --trigger-token) or in SVC_TRIGGER_TOKEN\n',
    ]);
    expect(suite.requests()).toEqual([]);
  });

  it('refuses the wait flags without --wait and a bad --var before any request (exit 2)', async () => {
    const flags = await suite.run(['pipeline', 'trigger', '2', '--ref', 'main', '--token', token, '--log-failed'], { secrets: [token] });
    expect(flags.exitCode).toBe(2);
    expect(flags.stderr).toBe('svc: --log-failed only applies with --wait\n');
    const bad = await suite.run(['pipeline', 'trigger', '2', '--ref', 'main', '--token', token, '--var', 'NOEQUALS'], { secrets: [token] });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("svc: --var 'NOEQUALS': expected KEY=VALUE\n");
    expect(suite.requests()).toEqual([]);
  });
});

describe('pipeline variables', () => {
  it('lists the variables a pipeline was created with', async () => {
    const created = await suite.run([
      'pipeline',
      'create',
      '3',
      '--ref',
      'main',
      '--var',
      'DEPLOY_ENV=staging',
      '--var',
      'EMPTY=',
      '-o',
      'json',
    ]);
    const id = String((JSON.parse(created.stdout) as { id: number }).id);
    const result = await suite.run(['pipeline', 'variables', '3', id]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('key\tvalue\tvariable_type\nDEPLOY_ENV\tstaging\tenv_var\nEMPTY\t\tenv_var\n');
    expect(onlyRequest(suite, 'GET', /variables/).rawPath).toBe(`/api/v4/projects/3/pipelines/${id}/variables`);
    const missing = await suite.run(['pipeline', 'variables', '3', '1']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('svc: GET /projects/3/pipelines/1/variables failed: 404 Not found\n');
  });
});
