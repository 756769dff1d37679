// svc mr merge against refusals the sandbox does not produce (service-endpoints.md §2, Merge): a
// scripted server answers the merge, then the merge request svc reads to say why in one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { svc } from '../support/harness.js';

let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

/** An instance whose merge answers `status`/`body`, and whose merge request 7 reads as `mr`. */
function instance(name: string, status: number, body: unknown, mr: Record<string, unknown> | null): string {
  const refusal = json(status, body);
  const read = mr ? json(200, { iid: 7, state: 'opened', target_branch: 'main', ...mr }) : json(403, { message: '403 Forbidden' });
  return server.add(name, (req, res, ctx) => (req.method === 'PUT' ? refusal(req, res, ctx) : read(req, res, ctx)));
}

const merge = (url: string, ...args: string[]) =>
  svc(['mr', 'merge', 'acme/api', '7', ...args], { env: { SVC_URL: url, SVC_TOKEN: 'scripted-token-0123456789' } });

describe('svc mr merge: refusals from other versions and settings of the service', () => {
  it('unresolved threads (405): says so, exit 6', async () => {
    const url = instance('threads', 405, { message: '405 Method Not Allowed' }, { detailed_merge_status: 'discussions_not_resolved' });
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([6, 'svc: cannot merge !7: it has unresolved threads\n']);
  });

  it('behind its target (405, need_rebase): names svc mr rebase, exit 6', async () => {
    const url = instance('rebase', 405, { message: '405 Method Not Allowed' }, { detailed_merge_status: 'need_rebase' });
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([6, 'svc: cannot merge !7: it must be rebased onto main (svc mr rebase does it)\n']);
  });

  it('conflicts on an older service (406 Branch cannot be merged): read from the merge request, exit 6', async () => {
    const url = instance('old-406', 406, { message: 'Branch cannot be merged' }, { detailed_merge_status: 'conflict' });
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([6, 'svc: cannot merge !7: it has conflicts with main; resolve them first\n']);
  });

  it('merge attempted but not done (422) while the merge request says mergeable: the service refusal, exit 6', async () => {
    const url = instance('attempted', 422, { message: 'Branch cannot be merged' }, { detailed_merge_status: 'mergeable' });
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([
      6,
      'svc: cannot merge !7: the service did not merge it (Branch cannot be merged) although it reports it mergeable; try again\n',
    ]);
  });

  it('a project that requires the sha (400): says to give --sha, exit 6', async () => {
    const url = instance('sha-required', 400, { message: 'SHA must be provided when merging' }, null);
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([
      6,
      'svc: cannot merge !7: this project requires --sha, the head commit of the source branch you checked\n',
    ]);
    expect(server.hits('sha-required')).toBe(1);
  });

  it('a refusal when the merge request cannot be read either: the refusal itself', async () => {
    const url = instance('unreadable', 405, { message: '405 Method Not Allowed' }, null);
    const r = await merge(url);
    expect([r.exitCode, r.stderr]).toEqual([6, 'svc: PUT /projects/acme%2Fapi/merge_requests/7/merge failed: 405 Method Not Allowed\n']);
  });
});
