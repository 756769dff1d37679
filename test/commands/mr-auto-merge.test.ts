// svc mr merge --auto [--wait]: sets the automatic merge and follows the merge request to merged
// (exit 0), or to its pipeline's failure, its closing or a canceled automatic merge (exit 8).
// Pipelines move only on the sandbox's clock, which every poll of the merge request steps.
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { MERGE_CHECK_MS } from '../../src/sandbox/resources/merge-request-checks.js';
import { TestClock } from '../support/clock.js';
import { apiCaller, useSandbox } from './support.js';

const clock = new TestClock();
const suite = useSandbox({ projects: 4, clock: clock.now });
const asJdoe = () => ({ token: suite.sandbox.tokens.user });
const MR_POLL = 'GET /projects/:id/merge_requests/:merge_request_iid';
const stepPerPoll = () => clock.stepPerRequest(suite.sandbox, MR_POLL, 100);
beforeEach(() => clock.hold());

const api = apiCaller(suite, (sandbox) => sandbox.tokens.user);

/** A fork of project 1 with one merge request from `source` into develop, checked, and a pipeline running on its source. */
async function waitingMergeRequest(name: string, source: string, variables: object[] = []): Promise<{ pid: string; pipeline: number }> {
  const fork = await api('POST', '/projects/1/fork', { name, path: name });
  await api('POST', `/projects/${fork.id}/merge_requests`, { title: name, source_branch: source, target_branch: 'develop' });
  await delay(MERGE_CHECK_MS + 30);
  const pipeline = await api('POST', `/projects/${fork.id}/pipeline`, { ref: source, variables });
  return { pid: String(fork.id), pipeline: pipeline.id };
}

const notes = async (pid: string) =>
  ((await api('GET', `/projects/${pid}/merge_requests/1/notes?sort=asc`)) as Array<{ body: string; system: boolean }>)
    .filter((n) => n.system)
    .map((n) => n.body);

describe('svc mr merge --auto --wait', () => {
  it('sets the automatic merge and follows it to merged: exit 0, one line per change, the merged record', async () => {
    const { pid, pipeline } = await waitingMergeRequest('auto-merged', 'feature/login');
    stepPerPoll();
    const r = await suite.run(['mr', 'merge', pid, '1', '--auto', '--wait', '--interval', '0.05', '--fields', 'iid,state'], asJdoe());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('iid\tstate\n1\tmerged\n');
    expect(r.stderr).toBe(
      [
        '!1 will be merged into develop when its pipeline succeeds',
        `!1: pipeline ${pipeline} created`,
        `!1: pipeline ${pipeline} pending`,
        `!1: pipeline ${pipeline} running`,
        '!1: merged',
        'merged !1 into develop',
        '',
      ].join('\n'),
    );
    const [put, ...polls] = suite.requests();
    expect([put!.method, put!.rawPath, put!.bodyJson]).toEqual([
      'PUT',
      `/api/v4/projects/${pid}/merge_requests/1/merge`,
      { auto_merge: true },
    ]);
    expect(polls.map((p) => `${p.method} ${p.rawPath}`)).toEqual(polls.map(() => `GET /api/v4/projects/${pid}/merge_requests/1`));
    const sha = (await api('GET', `/projects/${pid}/pipelines/${pipeline}`)).sha;
    expect(await notes(pid)).toEqual([`enabled an automatic merge when the pipeline for ${sha} succeeds`]);
  });

  it('--when-pipeline-succeeds is the same flag', async () => {
    const { pid } = await waitingMergeRequest('auto-alias', 'feature/login');
    const r = await suite.run(['mr', 'merge', pid, '1', '--when-pipeline-succeeds', '--fields', 'state'], asJdoe());
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'state\nopened\n', '!1 will be merged into develop when its pipeline succeeds\n']);
    expect(suite.requests()[0]!.bodyJson).toEqual({ auto_merge: true });
  });

  it('the pipeline fails: exit 8 with the reason; the automatic merge stays set, and a pipeline run again that succeeds merges it', async () => {
    const failing = [{ key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' }];
    const { pid, pipeline } = await waitingMergeRequest('auto-failed', 'feature/login', failing);
    stepPerPoll();
    const r = await suite.run(['mr', 'merge', pid, '1', '--auto', '--wait', '--interval', '0.05', '--fields', 'state'], asJdoe());
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('state\nopened\n');
    expect(r.stderr.split('\n').slice(-3)).toEqual([
      `!1: pipeline ${pipeline} failed`,
      `svc: pipeline ${pipeline} of !1 ended failed; the automatic merge stays set and happens if a retried pipeline succeeds`,
      '',
    ]);
    clock.hold();
    const mr = await api('GET', `/projects/${pid}/merge_requests/1`);
    expect([mr.state, mr.merge_when_pipeline_succeeds, mr.merge_user.username]).toEqual(['opened', true, 'jdoe']);
    await api('POST', `/projects/${pid}/pipeline`, { ref: 'feature/login' });
    clock.advance(60_000);
    const merged = await api('GET', `/projects/${pid}/merge_requests/1`);
    expect([merged.state, merged.merge_when_pipeline_succeeds, merged.merged_by.username]).toEqual(['merged', false, 'jdoe']);
  });

  it('closed meanwhile: exit 8, the automatic merge aborted with the service note', async () => {
    const { pid } = await waitingMergeRequest('auto-closed', 'feature/login');
    const waiting = suite.run(['mr', 'merge', pid, '1', '--auto', '--wait', '--interval', '0.05', '--fields', 'state'], asJdoe());
    while (!suite.sandbox.requests().some((r) => r.method === 'GET' && r.rawPath.endsWith('/merge_requests/1'))) await delay(5);
    await api('PUT', `/projects/${pid}/merge_requests/1`, { state_event: 'close' });
    const r = await waiting;
    expect([r.exitCode, r.stdout, r.stderr.split('\n').slice(-2)]).toEqual([
      8,
      'state\nclosed\n',
      ['svc: !1 is closed; the automatic merge was aborted', ''],
    ]);
    expect((await notes(pid)).slice(1)).toEqual(['aborted the automatic merge because merge request was closed']);
  });

  it('canceled meanwhile: exit 8 saying so', async () => {
    const { pid } = await waitingMergeRequest('auto-canceled', 'feature/login');
    const waiting = suite.run(['mr', 'merge', pid, '1', '--auto', '--wait', '--interval', '0.05', '--fields', 'state'], asJdoe());
    while (!suite.sandbox.requests().some((r) => r.method === 'GET' && r.rawPath.endsWith('/merge_requests/1'))) await delay(5);
    expect(await api('POST', `/projects/${pid}/merge_requests/1/cancel_merge_when_pipeline_succeeds`)).toEqual({ status: 'success' });
    const r = await waiting;
    expect([r.exitCode, r.stdout, r.stderr.split('\n').slice(-2)]).toEqual([
      8,
      'state\nopened\n',
      ['svc: the automatic merge of !1 was canceled', ''],
    ]);
  });

  it('--wait-timeout: exit 8, it stays set; with --events the result line says so last', async () => {
    const { pid, pipeline } = await waitingMergeRequest('auto-timeout', 'feature/login');
    const args = [
      'mr',
      'merge',
      pid,
      '1',
      '--auto',
      '--wait',
      '--interval',
      '0.05',
      '--wait-timeout',
      '0.2',
      '--events',
      '--fields',
      'state',
    ];
    const r = await suite.run(args, asJdoe());
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(
      new RegExp(`\\nsvc: !1 not merged after \\d+\\.\\d s \\(pipeline ${pipeline} created\\); it stays set to merge\\n$`),
    );
    const message = /^svc: (.*)$/m.exec(r.stderr)![1];
    const result = JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!);
    expect(result).toEqual({ type: 'result', exit_code: 8, message, record: { state: 'opened' } });
  });

  it('a pipeline that already succeeded: merged at once, and the wait ends at its first look', async () => {
    const { pid, pipeline } = await waitingMergeRequest('auto-at-once', 'feature/login');
    clock.advance(60_000);
    const r = await suite.run(['mr', 'merge', pid, '1', '--auto', '--wait', '--events', '--fields', 'state'], {
      ...asJdoe(),
      now: clock.now,
    });
    expect(suite.requests().map((q) => q.method)).toEqual(['PUT']);
    const mr = await api('GET', `/projects/${pid}/merge_requests/1`);
    expect([r.exitCode, r.stderr]).toEqual([0, '!1: merged\nmerged !1 into develop\n']);
    expect(r.stdout).toBe(
      `{"type":"merge_request","id":${mr.id},"status":"merged","iid":1,"state":"merged","pipeline":{"id":${pipeline},"status":"success"},` +
        `"at":"${new Date(clock.now()).toISOString()}"}\n` +
        '{"type":"result","exit_code":0,"record":{"state":"merged"}}\n',
    );
    expect(pipeline).toBe(mr.head_pipeline.id);
  });

  it('--wait without --auto, and --interval without --wait, are usage errors (exit 2, no request)', async () => {
    const bare = await suite.run(['mr', 'merge', '1', '1', '--wait'], asJdoe());
    expect([bare.exitCode, bare.stderr]).toEqual([2, 'svc: --wait only applies with --auto (a merge without it ends at once)\n']);
    const interval = await suite.run(['mr', 'merge', '1', '1', '--auto', '--interval', '1'], asJdoe());
    expect([interval.exitCode, interval.stderr]).toEqual([2, 'svc: --interval only applies with --wait\n']);
    const events = await suite.run(['mr', 'merge', '1', '1', '--auto', '--events'], asJdoe());
    expect([events.exitCode, events.stderr]).toEqual([2, 'svc: --events only applies with --wait\n']);
    expect(suite.requests()).toEqual([]);
  });
});
