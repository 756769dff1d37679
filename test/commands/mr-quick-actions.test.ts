// svc mr comment when the comment is only quick actions (service-endpoints.md §1, Notes: the same
// code serves issue and merge request notes): the service answers 202 with a summary and keeps no
// comment. The sandbox runs quick actions on issues only, so a scripted server answers here.
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

describe('svc mr comment with only quick actions', () => {
  it('says what they did on stderr and prints nothing on stdout', async () => {
    const url = server.add('approve', json(202, { commands_changes: { approve: true }, summary: ['Approved the current merge request.'] }));
    const r = await svc(['mr', 'comment', 'acme/api', '7', '--body', '/approve'], {
      env: { SVC_URL: url, SVC_TOKEN: 'scripted-token-0123456789' },
    });
    expect(r).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '!7 of acme/api: only quick actions, no comment: Approved the current merge request.\n',
    });
    expect(server.hits('approve')).toBe(1);
  });
});
