import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 6 });

async function api<T>(method: string, path: string, json?: unknown): Promise<T> {
  const res = await fetch(`${suite.sandbox.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return (await res.json()) as T;
}

interface PipelineJson {
  id: number;
  status: string;
  web_url: string;
}

const fullPath = (id: number) => suite.sandbox.state.project(id)!.fullPath;
const encoded = (id: number) => fullPath(id).replace(/\//g, '%2F');

/** A parent pipeline in project 1 with a child, whose bridge starts a pipeline in project 3 that fails. */
async function failingTree(): Promise<{ parent: number; child: number; downstream: number }> {
  const parent = await api<PipelineJson>('POST', '/projects/1/pipeline', {
    ref: 'main',
    variables: [
      { key: 'SANDBOX_DOWNSTREAM', value: `child>${fullPath(3)}` },
      { key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' },
    ],
  });
  // Created with the parent: the child and downstream pipelines take the next ids,.
  return { parent: parent.id, child: parent.id + 1, downstream: parent.id + 2 };
}

describe('pipeline wait --ref/--sha', () => {
  it('waits for the newest pipeline of a ref, asking for one pipeline per look', async () => {
    const created = await api<PipelineJson>('POST', '/projects/4/pipeline', { ref: 'feature/search-v2' });
    const result = await suite.run([
      'pipeline',
      'wait',
      fullPath(4),
      '--ref',
      'feature/search-v2',
      '--interval',
      '0.05',
      '--fields',
      'id,status',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`id\tstatus\n${created.id}\tsuccess\n`);
    const [first] = suite.requests();
    expect(first!.rawPath).toBe(`/api/v4/projects/${encoded(4)}/pipelines`);
    expect(first!.rawQuery).toBe('ref=feature%2Fsearch-v2&order_by=id&sort=desc&per_page=1');
    expect(result.stderr).toContain(`pipeline ${created.id} succeeded: ${created.web_url}\n`);
  });

  it('waits for a pipeline of a commit to appear, then for it to end', async () => {
    const branch = await api<{ commit: { id: string } }>('GET', '/projects/5/repository/branches/develop');
    const sha = branch.commit.id;
    const waiting = suite.run(['pipeline', 'wait', '5', '--sha', sha, '--interval', '0.05', '--fields', 'status']);
    // Create the pipeline only once the wait has looked for one and found none.
    const polled = () => suite.sandbox.requests().some((r) => r.rawPath.endsWith('/pipelines') && r.rawQuery.includes(`sha=${sha}`));
    let settled = false;
    void waiting.finally(() => (settled = true));
    while (!polled() && !settled) await new Promise((resolve) => setTimeout(resolve, 5));
    const created = await api<PipelineJson>('POST', '/projects/5/pipeline', { ref: 'develop' });
    const result = await waiting;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('status\nsuccess\n');
    expect(result.stderr.split('\n')[0]).toBe(`waiting for a pipeline of commit ${sha} to appear`);
    expect(result.stderr).toContain(`pipeline ${created.id} succeeded: ${created.web_url}\n`);
  });

  it('exits 8 when no pipeline appears before --wait-timeout', async () => {
    const result = await suite.run(['pipeline', 'wait', '6', '--ref', 'fix/issue-1', '--interval', '0.05', '--wait-timeout', '0.3']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^waiting for a pipeline of ref fix\/issue-1 to appear\nsvc: no pipeline of ref fix\/issue-1 appeared within \d+\.\d s\n$/,
    );
  });

  it('with --events ends a wait that found no pipeline with the result line, without a record', async () => {
    const args = ['pipeline', 'wait', '6', '--ref', 'fix/issue-1', '--interval', '0.05', '--wait-timeout', '0.1', '--events'];
    const result = await suite.run(args);
    expect([result.exitCode, result.stderr.split('\n').length]).toEqual([8, 3]);
    const message = /^svc: (.*)$/m.exec(result.stderr)![1];
    expect(message).toMatch(/^no pipeline of ref fix\/issue-1 appeared within \d+\.\d s$/);
    expect(result.stdout).toBe(`${JSON.stringify({ type: 'result', exit_code: 8, message })}\n`);
  });

  it('refuses an id with --ref, and neither (exit 2, no request)', async () => {
    const both = await suite.run(['pipeline', 'wait', '1', '3', '--ref', 'main']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toBe('svc: give a pipeline id or --ref/--sha, not both\n');
    const neither = await suite.run(['pipeline', 'wait', '1']);
    expect(neither.exitCode).toBe(2);
    expect(neither.stderr).toBe('svc: give a pipeline id, or --ref/--sha for the newest pipeline of a branch, tag or commit\n');
    expect(suite.requests()).toEqual([]);
  });
});

describe('pipeline wait --follow-downstream --log-failed', () => {
  it('follows parent → child → downstream; the downstream fails: exit 8, its failed job and log tail on stderr', async () => {
    const tree = await failingTree();
    const result = await suite.run([
      'pipeline',
      'wait',
      '1',
      String(tree.parent),
      '--follow-downstream',
      '--log-failed=4',
      '--interval',
      '0.05',
      '--fields',
      'id,status',
    ]);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe(`id\tstatus\n${tree.parent}\tfailed\n`);
    const jobs = await api<Array<{ id: number; web_url: string }>>('GET', `/projects/3/pipelines/${tree.downstream}/jobs?scope[]=failed`);
    expect(jobs.length).toBe(1);
    const job = jobs[0]!;
    const base = suite.sandbox.url;
    const end = [
      `pipeline ${tree.parent}: failed`,
      `pipeline ${tree.child} (child of ${tree.parent}): failed`,
      `pipeline ${tree.downstream} (downstream of ${tree.child}, project 3): failed`,
      `failed job ${job.id} in pipeline ${tree.downstream} (downstream of ${tree.child}, project 3): stage test, name test, reason script_failure`,
      `${base}/${fullPath(3)}/-/jobs/${job.id}`,
      `FAIL  test/test/job-${job.id}.test.ts > checks the build output`,
      'AssertionError: expected 3 to be 4',
      '',
      'ERROR: Job failed: exit code 1',
      `svc: pipeline ${tree.parent} ended failed: ${base}/${fullPath(1)}/-/pipelines/${tree.parent}; not successful: ` +
        `pipeline ${tree.child} (child of ${tree.parent}) failed, pipeline ${tree.downstream} (downstream of ${tree.child}, project 3) failed`,
      '',
    ].join('\n');
    expect(result.stderr.endsWith(`\n${end}`)).toBe(true);
    // The parent was created just before the wait: it may already have started.
    expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^pipeline ${tree.parent}: (created|pending|running)$`));
    // The downstream pipeline has no bridges: read once, never again.
    const bridgeReads = suite.requests().filter((r) => r.rawPath === `/api/v4/projects/3/pipelines/${tree.downstream}/bridges`);
    expect(bridgeReads.length).toBe(1);
    // Only the failed job's log is read.
    const logReads = suite.requests().filter((r) => r.rawPath.endsWith('/trace'));
    expect(logReads.map((r) => r.rawPath)).toEqual([`/api/v4/projects/3/jobs/${job.id}/trace`]);
  });

  it('shows the whole log of each failed job with --log-failed alone when it has fewer than 50 lines, as `jobs log` prints it', async () => {
    const tree = await failingTree();
    const result = await suite.run([
      'pipeline',
      'wait',
      '1',
      String(tree.parent),
      '--follow-downstream',
      '--log-failed',
      '--interval',
      '0.05',
    ]);
    expect(result.exitCode).toBe(8);
    const jobs = await api<Array<{ id: number }>>('GET', `/projects/3/pipelines/${tree.downstream}/jobs?scope[]=failed`);
    const log = await suite.run(['jobs', 'log', '3', String(jobs[0]!.id)]);
    expect(log.exitCode).toBe(0);
    const header = `${suite.sandbox.url}/${fullPath(3)}/-/jobs/${jobs[0]!.id}\n`;
    const after = result.stderr.slice(result.stderr.indexOf(header) + header.length);
    expect(after).toBe(
      `${log.stdout}svc: pipeline ${tree.parent} ended failed: ${suite.sandbox.url}/${fullPath(1)}/-/pipelines/${tree.parent}; not successful: pipeline ${tree.child} (child of ${tree.parent}) failed, pipeline ${tree.downstream} (downstream of ${tree.child}, project 3) failed\n`,
    );
  });

  it('follows a seeded multi-project bridge that already ended: one read of each pipeline and of each bridge list', async () => {
    const result = await suite.run(['pipeline', 'wait', '1', '3', '--follow-downstream', '--fields', 'id,status']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('id\tstatus\n3\tsuccess\n');
    expect(result.stderr).toBe(
      [
        'pipeline 3: success',
        'pipeline 6 (downstream of 3, project 2): success',
        `pipeline 3 succeeded, with 1 downstream pipeline: ${suite.sandbox.url}/${fullPath(1)}/-/pipelines/3`,
        '',
      ].join('\n'),
    );
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      'GET /api/v4/projects/1/pipelines/3',
      'GET /api/v4/projects/1/pipelines/3/bridges',
      'GET /api/v4/projects/2/pipelines/6/bridges',
    ]);
  });

  it('shows the failed job of a seeded failed pipeline, the reason in its log', async () => {
    const [pipeline] = await api<PipelineJson[]>('GET', '/projects/2/pipelines?status=failed');
    const [job] = await api<Array<{ id: number }>>('GET', `/projects/2/pipelines/${pipeline!.id}/jobs?scope[]=failed`);
    const result = await suite.run(['pipeline', 'wait', '2', String(pipeline!.id), '--log-failed=2', '--fields', 'status']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('status\nfailed\n');
    expect(result.stderr).toBe(
      [
        `pipeline ${pipeline!.id}: failed`,
        `failed job ${job!.id} in pipeline ${pipeline!.id}: stage test, name test, reason script_failure`,
        `${suite.sandbox.url}/${fullPath(2)}/-/jobs/${job!.id}`,
        '',
        'ERROR: Job failed: exit code 1',
        `svc: pipeline ${pipeline!.id} ended failed: ${pipeline!.web_url}`,
        '',
      ].join('\n'),
    );
  });

  it('a log it may not read (a job token) is named with the reason, and the wait still exits 8 for the failed pipeline', async () => {
    const job = suite.sandbox.tokens.job;
    const pipeline = await api<PipelineJson>('POST', '/projects/2/pipeline', {
      ref: 'main',
      variables: [{ key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' }],
    });
    const result = await suite.run(
      ['pipeline', 'wait', '2', String(pipeline.id), '--interval', '0.05', '--log-failed=2', '--fields', 'status'],
      {
        token: job,
        tokenType: 'job',
        secrets: [job],
      },
    );
    const [failed] = await api<Array<{ id: number }>>('GET', `/projects/2/pipelines/${pipeline.id}/jobs?scope[]=failed`);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('status\nfailed\n');
    const end = [
      `failed job ${failed!.id} in pipeline ${pipeline.id}: stage test, name test, reason script_failure`,
      `${suite.sandbox.url}/${fullPath(2)}/-/jobs/${failed!.id}`,
      `warning: could not read the log of job ${failed!.id}: GET /projects/2/jobs/${failed!.id}/trace failed: 401 Unauthorized ` +
        '(job tokens are accepted only on some endpoints, such as job artifacts, releases and packages)',
      `svc: pipeline ${pipeline.id} ended failed: ${pipeline.web_url}`,
      '',
    ].join('\n');
    expect(result.stderr.endsWith(`\n${end}`)).toBe(true);
  });

  it('without --follow-downstream reads bridges only once it ended: the failed trigger job and the pipeline it started', async () => {
    const tree = await failingTree();
    const result = await suite.run(['pipeline', 'wait', '1', String(tree.parent), '--interval', '0.05', '--log-failed']);
    expect(result.exitCode).toBe(8);
    const bridgeReads = suite.requests().filter((r) => r.rawPath.endsWith('/bridges'));
    expect(bridgeReads.map((r) => `${r.rawPath}?${r.rawQuery}`)).toEqual([
      `/api/v4/projects/1/pipelines/${tree.parent}/bridges?scope[]=failed&per_page=100`,
    ]);
    const [bridge] = await api<Array<{ id: number }>>('GET', `/projects/1/pipelines/${tree.parent}/bridges`);
    const base = suite.sandbox.url;
    // The parent's own jobs succeeded: its failure is its trigger job's.
    const end = [
      `pipeline ${tree.parent}: failed`,
      `failed trigger job ${bridge!.id} in pipeline ${tree.parent}: stage downstream, name trigger:child, reason unknown_failure`,
      `${base}/${fullPath(1)}/-/jobs/${bridge!.id}`,
      `it started pipeline ${tree.child} (project 1), which ended failed: ${base}/${fullPath(1)}/-/pipelines/${tree.child} ` +
        '(--follow-downstream shows its failed jobs)',
      `svc: pipeline ${tree.parent} ended failed: ${base}/${fullPath(1)}/-/pipelines/${tree.parent}`,
      '',
    ].join('\n');
    expect(result.stderr.endsWith(`\n${end}`)).toBe(true);
  });

  it('names a trigger job that failed without starting a pipeline (its project not found), and no log for it', async () => {
    const parent = await api<PipelineJson>('POST', '/projects/1/pipeline', {
      ref: 'main',
      variables: [{ key: 'SANDBOX_DOWNSTREAM', value: 'no-such-group/no-such-project' }],
    });
    const result = await suite.run([
      'pipeline',
      'wait',
      '1',
      String(parent.id),
      '--follow-downstream',
      '--interval',
      '0.05',
      '--log-failed=5',
    ]);
    expect(result.exitCode).toBe(8);
    const [bridge] = await api<Array<{ id: number }>>('GET', `/projects/1/pipelines/${parent.id}/bridges`);
    const end = [
      `pipeline ${parent.id}: failed`,
      `failed trigger job ${bridge!.id} in pipeline ${parent.id}: stage downstream, name trigger:no-such-group/no-such-project, ` +
        'reason downstream_bridge_project_not_found',
      `${suite.sandbox.url}/${fullPath(1)}/-/jobs/${bridge!.id}`,
      `svc: pipeline ${parent.id} ended failed: ${parent.web_url}`,
      '',
    ].join('\n');
    expect(result.stderr.endsWith(`\n${end}`)).toBe(true);
    expect(suite.requests().filter((r) => r.rawPath.endsWith('/trace'))).toEqual([]);
  });

  it('on a terminal shows a line per pipeline, and keeps the runner markup a terminal renders (colours, section markers)', async () => {
    const tree = await failingTree();
    const term = spawnPty(
      [
        'node',
        BIN,
        'pipeline',
        'wait',
        '1',
        String(tree.parent),
        '--follow-downstream',
        '--log-failed=4',
        '--interval',
        '0.05',
        '--fields',
        'status',
      ],
      { env: { ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm' } },
    );
    const end = await term.exit();
    expect(end.exitCode).toBe(8);
    // One progress line per pipeline, redrawn in place: the child's line is there though no line per change is printed.
    expect(end.output).toContain(`pipeline ${tree.child} (child of ${tree.parent}): `);
    // The lines are lines on the terminal, not one line joined by an escaped newline.
    expect(end.output).not.toContain('\\n');
    expect(end.output).toMatch(
      new RegExp(`pipeline ${tree.parent}\\b[^\\r\\n]*\\r?\\n[^\\r\\n]*pipeline ${tree.child} \\(child of ${tree.parent}\\)`),
    );
    expect(end.output).not.toContain(`\r\npipeline ${tree.child} (child of ${tree.parent}): failed\r\n`);
    expect(end.output).toContain('\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m');
    expect(end.output).toMatch(/\r\nsection_end:\d+:step_script\r\u001b\[0K\r\n\u001b\[31;1mERROR/);
  });
});

describe('pipeline create --wait with the tree flags', () => {
  it('exits 0 when the pipeline and its child succeed, and says how many followed', async () => {
    const result = await suite.run([
      'pipeline',
      'create',
      '2',
      '--ref',
      'main',
      '--var',
      'SANDBOX_DOWNSTREAM=child',
      '--wait',
      '--follow-downstream',
      '--log-failed',
      '--interval',
      '0.05',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    const pipeline = JSON.parse(result.stdout) as PipelineJson;
    expect(pipeline.status).toBe('success');
    expect(result.stderr).toContain(`pipeline ${pipeline.id + 1} (child of ${pipeline.id}): success\n`);
    expect(result.stderr.endsWith(`pipeline ${pipeline.id} succeeded, with 1 downstream pipeline: ${pipeline.web_url}\n`)).toBe(true);
  });

  it('refuses the tree flags without --wait (exit 2, nothing created)', async () => {
    const result = await suite.run(['pipeline', 'create', '2', '--ref', 'main', '--follow-downstream', '--log-failed=3']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: --follow-downstream and --log-failed only apply with --wait\n');
    expect(suite.requests()).toEqual([]);
  });
});
