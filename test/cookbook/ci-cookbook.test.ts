import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Sandbox } from '../../src/sandbox/index.js';
import { assertNoSecrets, BIN, cleanupTempDirs, svc, tempDir, type RunResult } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { MERGE_CHECK_MS } from '../../src/sandbox/resources/merge-request-checks.js';

/**
 * The README's "In CI" section is the cookbook: every ```yaml block in it is one GitLab CI job,
 * and each job's `script:` lines run here with bash as a runner would run them.
 */
const README = fileURLToPath(new URL('../../README.md', import.meta.url));

interface Job {
  variables?: Record<string, string>;
  before_script?: string[];
  script: string[];
  rules?: Array<{ if: string }>;
}

function cookbookYaml(): string[] {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## In CI\n'), text.indexOf('\n## ', text.indexOf('\n## In CI\n') + 1));
  return [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/** Each block parsed as strict YAML 1.2, so a block that is not valid YAML fails here. */
function parseJobs(): Record<string, Job> {
  const jobs: Record<string, Job> = {};
  for (const block of cookbookYaml()) Object.assign(jobs, parseYaml(block, { strict: true, uniqueKeys: true }) as Record<string, Job>);
  return jobs;
}

/** `$NAME` and `${NAME}` in a job's `variables:`, expanded from the runner's variables as GitLab does. */
function expand(value: string, env: Record<string, string>): string {
  return value.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, braced: string | undefined, bare: string | undefined) => env[(braced ?? bare)!] ?? '');
}

let sandbox: Sandbox;
let jobs: Record<string, Job>;
let binDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ projects: 4 });
  jobs = parseJobs();
  binDir = tempDir('svc-cookbook-bin-');
  writeFileSync(join(binDir, 'svc'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(binDir, 'svc'), 0o755);
});

afterAll(async () => {
  await sandbox?.close();
  cleanupTempDirs();
});

/** What a runner sets for every job of project 2's pipeline (the sandbox's job token belongs to its job 7). */
function runnerVariables(extra: Record<string, string>): Record<string, string> {
  const project = sandbox.state.project(2)!;
  return {
    CI_SERVER_URL: sandbox.url,
    CI_JOB_TOKEN: sandbox.tokens.job,
    CI_PROJECT_ID: String(project.id),
    CI_PROJECT_PATH: project.fullPath,
    CI_COMMIT_REF_PROTECTED: 'true',
    ...extra,
  };
}

/** Runs a job's `script:` lines in one bash, stopping at the first failure, in a build directory. */
async function runJob(name: string, variables: Record<string, string>, cwd: string): Promise<RunResult> {
  const job = jobs[name]!;
  const env: Record<string, string> = { PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: cwd };
  env.SVC_CONFIG_DIR = join(cwd, '.svc-config');
  Object.assign(env, variables);
  for (const [key, value] of Object.entries(job.variables ?? {})) env[key] = expand(value, variables);
  const script = ['set -eo pipefail', ...job.script].join('\n');
  const result = await execa('bash', ['-c', script], {
    env,
    extendEnv: false,
    cwd,
    reject: false,
    timeout: 240_000,
    stripFinalNewline: false,
  });
  const out = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
  assertNoSecrets(out);
  return out;
}

/** The one record a command printed as tsv (header line, value line), by column. */
function tsvRecord(stdout: string): Record<string, string> {
  const [header = '', values = ''] = stdout.trimEnd().split('\n');
  const keys = header.split('\t');
  const cells = values.split('\t');
  return Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? '']));
}

const admin = (args: string[]) => svc(args, { env: sandboxEnv(sandbox) });

describe('the README CI cookbook', () => {
  it('has exactly the jobs this test runs, each installing svc the same way', () => {
    expect(Object.keys(jobs).sort()).toEqual([
      'archive-projects',
      'clean-registry',
      'external-scan',
      'lint-ci-config',
      'merge-when-green',
      'offboard',
      'package',
      'release',
      'stop-stale-environments',
      'sync-variables',
      'take-over-nightly',
      'test-deploy-script',
      'trigger-downstream',
      'wait-for-integration',
    ]);
    for (const job of Object.values(jobs)) expect(job.before_script).toEqual(['npm install -g ./svc-0.1.0.tgz']);
    expect(jobs.release!.rules).toEqual([{ if: '$CI_COMMIT_TAG' }]);
    expect(jobs.offboard!.rules).toEqual([{ if: '$LEAVER', when: 'manual' }]);
    expect(jobs['sync-variables']!.rules).toEqual([{ if: '$CI_COMMIT_REF_PROTECTED == "true"' }]);
    expect(jobs['clean-registry']!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    expect(jobs['stop-stale-environments']!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    expect(jobs['lint-ci-config']!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(jobs['take-over-nightly']!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "web"' }]);
  });

  it('clean-registry: with the job token, keeps the newest five dev tags and deletes the older ones past two weeks', async () => {
    // Project 2's root image (repository 3) has dev-1 … dev-8, 40 down to 5 days old.
    const result = await runJob('clean-registry', runnerVariables({ CI_PIPELINE_SOURCE: 'schedule' }), tempDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('name\ndev-1\ndev-2\ndev-3\n');
    const left = await admin(['registry', 'tags', '2', '3', '-o', 'tsv', '--fields', 'name']);
    expect(left.stdout.split('\n').filter((name) => name.startsWith('dev-'))).toEqual(['dev-4', 'dev-5', 'dev-6', 'dev-7', 'dev-8']);
  });

  it('stop-stale-environments: stops what the plan shows, one outcome record each, and nothing else', async () => {
    const project = sandbox.state.project(2)!.fullPath;
    const variables = runnerVariables({ ENVIRONMENTS_TOKEN: sandbox.tokens.user, CI_PIPELINE_SOURCE: 'schedule' });
    const result = await runJob('stop-stale-environments', variables, tempDir());
    expect(result.exitCode).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toBe('id\tname\tstate\tupdated_at\toutcome');
    expect(rows.map((row) => row.split('\t')).map(([id, name, , , outcome]) => `${id} ${name} ${outcome}`)).toEqual([
      '12 review/feature-login scheduled',
      '17 review/docs scheduled',
      '18 canary scheduled',
    ]);
    expect(result.stderr.split('\n').at(-2)).toBe(`the service scheduled 3 environments of project ${project} to stop`);
    const stopped = await admin(['environments', 'list', '2', '--states', 'stopped', '--fields', 'name']);
    expect(stopped.stdout).toBe('name\nreview/feature-login\nreview/search-v2\nreview/docs\ncanary\n');
  });

  it('trigger-downstream: triggers with the job token and exits 0 once the downstream tree succeeded', async () => {
    const downstream = sandbox.state.project(1)!.fullPath;
    const sha = 'a'.repeat(40);
    const result = await runJob(
      'trigger-downstream',
      runnerVariables({ DOWNSTREAM_PROJECT: downstream, DOWNSTREAM_READ_TOKEN: sandbox.tokens.readApi, CI_COMMIT_SHA: sha }),
      tempDir(),
    );
    expect(result.exitCode).toBe(0);
    const pipeline = tsvRecord(result.stdout);
    expect([pipeline.status, pipeline.ref, pipeline.source]).toEqual(['success', 'main', 'pipeline']);
    const variables = await admin(['pipeline', 'variables', downstream, pipeline.id!, '-o', 'json']);
    expect(JSON.parse(variables.stdout)).toEqual([{ key: 'UPSTREAM_SHA', value: sha, variable_type: 'env_var' }]);
  });

  it('wait-for-integration: exits 8 when the pipeline for the commit fails, with the failed job and its log tail on stderr', async () => {
    const other = sandbox.state.project(1)!.fullPath;
    const created = await admin(['pipeline', 'create', other, '--ref', 'fail/broken-build', '-o', 'json']);
    const { id, sha } = JSON.parse(created.stdout) as { id: number; sha: string };
    const result = await runJob(
      'wait-for-integration',
      runnerVariables({ OTHER_PROJECT: other, OTHER_PROJECT_READ_TOKEN: sandbox.tokens.readApi, CI_COMMIT_SHA: sha }),
      tempDir(),
    );
    expect(result.exitCode).toBe(8);
    expect(tsvRecord(result.stdout)).toMatchObject({ id: String(id), status: 'failed', sha });
    const failed = await admin(['jobs', 'list', other, '--pipeline', String(id), '--scope', 'failed', '-o', 'json']);
    const [job] = JSON.parse(failed.stdout) as Array<{ id: number; name: string; web_url: string }>;
    expect(result.stderr).toContain(job!.web_url);
    const log = await admin(['jobs', 'log', other, String(job!.id), '--tail', '1']);
    expect(result.stderr).toContain(log.stdout.trimEnd());
  });

  it('merge-when-green: sets the automatic merge, waits for the pipeline, and ends with the merged result line', async () => {
    const fork = await admin(['projects', 'fork', '1', '--name', 'green', '--path', 'green', '-o', 'json']);
    const project = (JSON.parse(fork.stdout) as { path_with_namespace: string }).path_with_namespace;
    await admin(['mr', 'create', project, '--source', 'feature/login', '--target', 'develop', '--title', 'Bump deps']);
    await new Promise((done) => setTimeout(done, MERGE_CHECK_MS + 30));
    await admin(['pipeline', 'create', project, '--ref', 'feature/login']);
    const variables = runnerVariables({ MERGE_TOKEN: sandbox.tokens.admin, TARGET_PROJECT: project, TARGET_MR: '1' });
    const dir = tempDir();
    const result = await runJob('merge-when-green', variables, dir);
    expect(result.exitCode).toBe(0);
    const last = JSON.parse(result.stdout) as { type: string; exit_code: number; record: { state: string } };
    expect([last.type, last.exit_code, last.record.state]).toEqual(['result', 0, 'merged']);
    const events = readFileSync(join(dir, 'merge.ndjson'), 'utf8').trimEnd().split('\n');
    expect(events.at(-1)).toBe(result.stdout.trimEnd());
    expect(events.slice(0, -1).every((line) => (JSON.parse(line) as { type: string }).type === 'merge_request')).toBe(true);
  });

  it('release: publishes the tag with the changelog as notes using only the job token; a second run exits 6', async () => {
    const project = sandbox.state.project(2)!.fullPath;
    const dir = tempDir();
    const notes = '## v2.0.0-rc.1\n\n- Sign in with a passkey\n- Faster search\n';
    writeFileSync(join(dir, 'CHANGELOG.md'), notes);
    const variables = runnerVariables({ CI_COMMIT_TAG: 'v2.0.0-rc.1', CI_COMMIT_SHA: 'b'.repeat(40) });
    const result = await runJob('release', variables, dir);
    expect(result.exitCode).toBe(0);
    const url = `${sandbox.url}/${project}/-/releases/v2.0.0-rc.1`;
    expect(result.stderr).toBe(`created release v2.0.0-rc.1: ${url}\n`);
    expect(tsvRecord(result.stdout)).toMatchObject({ tag_name: 'v2.0.0-rc.1', name: 'Release v2.0.0-rc.1', '_links.self': url });
    const release = await admin(['releases', 'get', project, 'v2.0.0-rc.1', '-o', 'json']);
    expect(JSON.parse(release.stdout)).toMatchObject({ description: notes, name: 'Release v2.0.0-rc.1' });
    const again = await runJob('release', variables, dir);
    expect(again.exitCode).toBe(6);
    expect(again.stdout).toBe('');
  });

  it('sync-variables: creates, updates and prunes to match the file, printing the plan without values', async () => {
    const project = sandbox.state.project(2)!.fullPath;
    for (const [key, value] of [
      ['DEPLOY_ENV', 'production'],
      ['OLD_KEY', 'stale'],
    ]) {
      expect((await admin(['variables', 'set', '--project', project, key!, '--value', value!])).exitCode).toBe(0);
    }
    const dir = tempDir();
    mkdirSync(join(dir, 'ci'));
    writeFileSync(join(dir, 'ci', 'variables.env'), 'DEPLOY_ENV=staging\nAPI_URL=https://api.example.com\n');
    const variables = runnerVariables({ VARIABLES_TOKEN: sandbox.tokens.user, CI_COMMIT_SHA: 'c'.repeat(40) });
    const result = await runJob('sync-variables', variables, dir);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n').sort()).toEqual(['', 'create\tAPI_URL\t*', 'delete\tOLD_KEY\t*', 'update\tDEPLOY_ENV\t*\tvalue']);
    expect(result.stdout).not.toContain('staging');
    expect(result.stderr).toBe(`synced project ${project}: 1 created, 1 updated, 1 deleted, 0 unchanged, 0 failed\n`);
    const listed = await admin(['variables', 'list', '--project', project, '--show-values', '-o', 'json']);
    const pairs = (JSON.parse(listed.stdout) as Array<{ key: string; value: string }>).map((v) => [v.key, v.value]).sort();
    expect(pairs).toEqual([
      ['API_URL', 'https://api.example.com'],
      ['DEPLOY_ENV', 'staging'],
    ]);
  });

  it('package: saves the upstream job artifacts and names the latest release; a job without artifacts exits 5', async () => {
    const dir = tempDir();
    const result = await runJob('package', runnerVariables({ BUILD_JOB_ID: '7', CI_COMMIT_SHA: 'd'.repeat(40) }), dir);
    expect(result.exitCode).toBe(0);
    const redirect = await fetch(`${sandbox.url}/api/v4/projects/2/jobs/7/artifacts`, {
      headers: { 'PRIVATE-TOKEN': sandbox.tokens.admin },
      redirect: 'manual',
    });
    const archive = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    expect(readFileSync(join(dir, 'build.zip')).equals(archive)).toBe(true);
    const latest = await admin(['releases', 'list', '2', '--limit', '1', '--fields', 'tag_name', '-o', 'json']);
    const [{ tag_name }] = JSON.parse(latest.stdout) as Array<{ tag_name: string }>;
    expect(result.stdout).toBe(`packaging ${tag_name}\n`);
    const missing = await runJob('package', runnerVariables({ BUILD_JOB_ID: '999999', CI_COMMIT_SHA: 'd'.repeat(40) }), tempDir());
    expect(missing.exitCode).toBe(5);
    expect(missing.stdout).toBe('');
  });

  it('lint-ci-config: lints the checkout’s .gitlab-ci.yml in a merge-request pipeline; an invalid one exits 6 with its errors', async () => {
    const dir = tempDir();
    const variables = runnerVariables({
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_LINT_TOKEN: sandbox.tokens.admin,
      CI_COMMIT_SHA: 'e'.repeat(40),
    });
    writeFileSync(
      join(dir, '.gitlab-ci.yml'),
      'stages: [build, test]\nbuild:\n  stage: build\n  script: make\ntest:\n  script: make test\n',
    );
    const valid = await runJob('lint-ci-config', variables, dir);
    expect(valid).toEqual({
      exitCode: 0,
      stdout: 'name\tstage\twhen\tallow_failure\nbuild\tbuild\ton_success\tfalse\ntest\ttest\ton_success\tfalse\n',
      stderr: '.gitlab-ci.yml is valid\n',
    });
    writeFileSync(join(dir, '.gitlab-ci.yml'), 'include: ci/shared.yml\nbuild:\n  script: make\n');
    const invalid = await runJob('lint-ci-config', variables, dir);
    expect(invalid).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'error: Local file `ci/shared.yml` does not exist!\nsvc: .gitlab-ci.yml is invalid: 1 error\n',
    });
  });

  it('archive-projects: four parallel jobs archive every project of the list exactly once between them', async () => {
    const created: string[] = [];
    for (let i = 0; i < 12; i++) {
      const made = await admin(['projects', 'create', '--name', `Old ${i}`, '--path', `old-${i}`, '-o', 'tsv', '--fields', 'id']);
      expect(made.exitCode).toBe(0);
      created.push(made.stdout.trimEnd().split('\n')[1]!);
    }
    const dir = tempDir();
    mkdirSync(join(dir, 'ci'));
    writeFileSync(join(dir, 'ci', 'archive.txt'), `${created.join('\n')}\n`);
    sandbox.clearRequests();
    const archived: string[] = [];
    for (let node = 1; node <= 4; node++) {
      const variables = runnerVariables({ ARCHIVE_TOKEN: sandbox.tokens.admin, CI_NODE_INDEX: String(node), CI_NODE_TOTAL: '4' });
      const result = await runJob('archive-projects', variables, dir);
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.split('\n').filter((line) => line !== '');
      for (const line of lines) {
        const outcome = JSON.parse(line) as { input: string; ok: boolean; result: { id: number; archived: boolean } };
        expect(outcome).toMatchObject({ ok: true, result: { id: Number(outcome.input), archived: true } });
        archived.push(outcome.input);
      }
      expect(result.stderr).toContain(`bulk: shard ${node}/4 took ${lines.length} of 12 input lines\n`);
    }
    expect([...archived].sort()).toEqual([...created].sort());
    const posts = sandbox.requests().filter((r) => r.origin === 'api' && r.method === 'POST' && /\/archive$/.test(r.rawPath));
    expect(posts.map((r) => r.rawPath).sort()).toEqual(created.map((id) => `/api/v4/projects/${id}/archive`).sort());
  });

  it('offboard: a refused step exits 8 naming what is left; the retried job, with the journal, does only that', async () => {
    const api = (path: string, method: string, json: unknown, headers: Record<string, string> = {}) =>
      fetch(`${sandbox.url}/api/v4${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': sandbox.tokens.admin, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(json),
      }).then((r) => r.json() as Promise<{ id: number }>);
    const leaver = await api('/users', 'POST', { email: 'gone@example.com', username: 'gone', name: 'Gone', reset_password: true });
    await api('/groups/1/members', 'POST', { user_id: leaver.id, access_level: 30 });
    await api('/groups/2/members', 'POST', { user_id: leaver.id, access_level: 50 });
    const schedule = await api(
      '/projects/2/pipeline_schedules',
      'POST',
      { description: 'nightly', ref: 'main', cron: '0 1 * * *' },
      { sudo: 'gone' },
    );
    const dir = tempDir();
    const variables = runnerVariables({ ADMIN_TOKEN: sandbox.tokens.admin, LEAVER: 'gone', HEIR: 'jdoe' });
    const first = await runJob('offboard', variables, dir);
    expect(first.exitCode).toBe(8);
    expect(first.stdout).toContain(`take over\tschedule ${schedule.id} "nightly" of project 2\n`);
    expect(first.stderr.trimEnd().split('\n').pop()).toMatch(
      /^svc: offboarding gone \(\d+\): \d+ of \d+ steps done; left: remove from group Platform \(2\)$/,
    );
    await api('/groups/2/members', 'POST', { user_id: 2, access_level: 50 });
    const retried = await runJob('offboard', variables, dir);
    expect(retried).toEqual({
      exitCode: 0,
      stdout: 'step\ttarget\nremove from\tgroup Platform (2)\n',
      stderr: `offboarding gone (${leaver.id}): 1 of 1 steps done\n`,
    });
    expect(sandbox.state.user('gone')!.state).toBe('blocked');
  });

  it('take-over-nightly: a maintainer takes the Nightly schedule over and plays it; a project without one exits 5', async () => {
    const project = sandbox.state.project(2)!.fullPath;
    for (const description of ['Weekly', 'Nightly']) {
      const made = await admin([
        'schedules',
        'create',
        project,
        '--description',
        description,
        '--ref',
        'main',
        '--cron',
        '0 2 * * *',
        '-q',
      ]);
      expect(made.exitCode).toBe(0);
    }
    const listed = await admin(['schedules', 'list', project, '-o', 'json', '--fields', 'id,description']);
    const nightly = (JSON.parse(listed.stdout) as Array<{ id: number; description: string }>).find((s) => s.description === 'Nightly')!;
    const result = await runJob('take-over-nightly', runnerVariables({ SCHEDULES_TOKEN: sandbox.tokens.user }), tempDir());
    // play prints the service's answer, which names no pipeline; `schedules get` shows it.
    expect(result).toEqual({
      exitCode: 0,
      stdout: 'message\n201 Created\n',
      stderr: `started a pipeline of schedule ${nightly.id} of project ${project}\n`,
    });
    const after = await admin([
      'schedules',
      'get',
      project,
      String(nightly.id),
      '-o',
      'json',
      '--fields',
      'owner.username,last_pipeline.ref',
    ]);
    expect(JSON.parse(after.stdout)).toEqual({ owner: { username: 'jdoe' }, last_pipeline: { ref: 'main' } });
    const none = await runJob(
      'take-over-nightly',
      runnerVariables({ SCHEDULES_TOKEN: sandbox.tokens.user, CI_PROJECT_PATH: sandbox.state.project(1)!.fullPath }),
      tempDir(),
    );
    expect(none).toEqual({ exitCode: 5, stdout: '', stderr: 'no schedule called Nightly\n' });
  });

  it('external-scan: posts running, then success or failed with the last line of the check, as the job token', async () => {
    const sha = JSON.parse((await admin(['commits', 'get', '2', 'develop', '-o', 'json', '--fields', 'id'])).stdout).id as string;
    const url = 'https://ci.example.com/jobs/7';
    for (const [check, state, exitCode] of [
      ['echo scanning; echo "no findings"', 'success', 0],
      ['echo "2 findings"; exit 3', 'failed', 1],
    ] as const) {
      const dir = tempDir();
      mkdirSync(join(dir, 'ci'));
      writeFileSync(join(dir, 'ci', 'scan.sh'), `#!/bin/sh\n${check}\n`);
      chmodSync(join(dir, 'ci', 'scan.sh'), 0o755);
      sandbox.clearRequests();
      const result = await runJob('external-scan', runnerVariables({ CI_COMMIT_SHA: sha, CI_JOB_URL: url }), dir);
      expect(result).toEqual({ exitCode, stdout: '', stderr: '' });
      const posts = sandbox.requests().filter((r) => r.origin === 'api' && r.method === 'POST');
      expect(posts.map((r) => [r.rawPath, r.headers['job-token'] !== undefined, (JSON.parse(r.body) as { state: string }).state])).toEqual([
        [`/api/v4/projects/2/statuses/${sha}`, true, 'running'],
        [`/api/v4/projects/2/statuses/${sha}`, true, state],
      ]);
      const statuses = await admin(['commits', 'statuses', '2', sha, '--all-statuses', '--name', 'external-scan', '-o', 'json']);
      const last = (JSON.parse(statuses.stdout) as Array<Record<string, unknown>>).at(-1)!;
      expect([last.status, last.target_url, last.description, last.started_at !== null]).toEqual([
        state,
        url,
        state === 'success' ? 'no findings' : '2 findings',
        true,
      ]);
    }
  });

  it('test-deploy-script: the script exits 8 and names the failing job log line, against the README scenario in a background sandbox', async () => {
    const dir = tempDir();
    const [scenario, script] = scenarioFiles();
    mkdirSync(join(dir, 'ci'));
    writeFileSync(join(dir, 'ci', 'deploy-fails.yml'), scenario);
    writeFileSync(join(dir, 'ci', 'deploy.sh'), script);
    const result = await runJob('test-deploy-script', {}, dir);
    expect(result).toEqual({
      exitCode: 0,
      stdout: 'ERROR: health check failed on web-2\ndeploy of acme/app failed (svc exit 8)\n',
      stderr: '',
    });
    // The job fails when the script does not take its failure path.
    writeFileSync(join(dir, 'ci', 'deploy-fails.yml'), scenario.replace('status: failed', 'status: success'));
    const passing = await runJob('test-deploy-script', {}, dir);
    expect(passing.exitCode).toBe(1);
    expect(readFileSync(join(dir, 'deploy.out'), 'utf8')).toMatch(/\tsuccess\t[\s\S]*deployed acme\/app\n$/);
  });
});

/** The scenario and the script of the README's "Testing a CI script against a scenario", by their first-line names. */
function scenarioFiles(): [string, string] {
  const text = readFileSync(README, 'utf8');
  const block = (name: string) => new RegExp(`^\`\`\`\\w+\\n(# ${name}\\n[\\s\\S]*?)^\`\`\`$`, 'm').exec(text)![1]!;
  return [block('ci/deploy-fails.yml'), block('ci/deploy.sh')];
}
