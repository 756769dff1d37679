import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Sandbox } from '../../src/sandbox/index.js';
import { assertNoSecrets, BIN, cleanupTempDirs, svc, tempDir, type RunResult } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

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
      'package',
      'release',
      'sync-variables',
      'test-deploy-script',
      'trigger-downstream',
      'wait-for-integration',
    ]);
    for (const job of Object.values(jobs)) expect(job.before_script).toEqual(['npm install -g ./svc-0.1.0.tgz']);
    expect(jobs.release!.rules).toEqual([{ if: '$CI_COMMIT_TAG' }]);
    expect(jobs['sync-variables']!.rules).toEqual([{ if: '$CI_COMMIT_REF_PROTECTED == "true"' }]);
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
