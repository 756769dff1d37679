// Webhooks: the service's lib/api/project_hooks.rb, ee/lib/api/group_hooks.rb, system_hooks.rb and
// helpers/web_hooks_helpers.rb (`Invalid url given` 422, `No parameters provided` 400, `.find` → `404 Not
// found`, delete 204), lib/api/hooks/trigger_test.rb (201 `201 Created`, else 422 with the service's
// message), test.rb (a system hook's test answers its sample data), events.rb (the delivery log, 20 a page
// at most), entities/hook.rb, project_hook.rb and web_hook_log.rb (no `token`; a list without
// `url_variables` and `custom_headers`), services/test_hooks/project_service.rb (`Ensure the project has
// issues.`), models/concerns/web_hooks/auto_disabling.rb (the back-off that `alert_status` and
// `disabled_until` show), and the policies: project hooks a maintainer, group hooks an owner, system hooks
// an administrator. The sandbox's choices are in src/sandbox/README.md, "Webhooks".
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../support/clock.js';
import { useSandbox } from './setup.js';

const clock = new TestClock();
const c = useSandbox({ projects: 10, clock: clock.now });
const received: Array<{ headers: IncomingHttpHeaders; body: string; path?: string }> = [];
let answer = 200;
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url });
      res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer === 200 ? 'ok' : 'receiver refused');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const post = (path: string, json: Record<string, unknown> = {}, as: 'admin' | 'user' = 'admin') =>
  c.call(path, { as, method: 'POST', json });

describe('project hooks', () => {
  it('creates a hook with the service defaults, never answers its token, and lists it without url_variables', async () => {
    const created = await post('/projects/1/hooks', { url: `${base}/ci`, token: 's3cret-token', issues_events: true }, 'user');
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      url: `${base}/ci`,
      push_events: true,
      issues_events: true,
      tag_push_events: false,
      enable_ssl_verification: true,
      alert_status: 'executable',
      disabled_until: null,
      url_variables: [],
      custom_headers: [],
      project_id: 1,
      branch_filter_strategy: 'wildcard',
    });
    expect(JSON.stringify(created.json)).not.toContain('s3cret-token');
    const list = await c.call('/projects/1/hooks', { as: 'user' });
    expect([list.status, list.headers['x-total']]).toEqual([200, '1']);
    expect(Object.keys(list.json[0])).not.toContain('url_variables');
    expect(Object.keys(list.json[0])).not.toContain('custom_headers');
    const one = await c.call(`/projects/1/hooks/${created.json.id}`, { as: 'user' });
    expect(one.json).toEqual(created.json);
  });

  it('refuses a url that is none, an empty update, an unknown or malformed id, and a developer', async () => {
    const bad = await post('/projects/2/hooks', { url: 'ftp://example.com/x' });
    expect([bad.status, bad.json]).toEqual([422, { message: 'Invalid url given' }]);
    const missing = await post('/projects/2/hooks', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'url is missing' }]);
    const hook = (await post('/projects/2/hooks', { url: 'https://hooks.example.com/a' })).json;
    const empty = await c.call(`/projects/2/hooks/${hook.id}`, { as: 'admin', method: 'PUT', json: {} });
    expect([empty.status, empty.json]).toEqual([400, { message: 'No parameters provided' }]);
    const unknown = await c.call('/projects/2/hooks/999999', { as: 'admin' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
    const word = await c.call('/projects/2/hooks/abc', { as: 'admin' });
    expect([word.status, word.json]).toEqual([400, { error: 'hook_id is invalid' }]);
    const added = await post('/projects/3/members', { user_id: 5, access_level: 30 });
    expect(added.status).toBe(201);
    const developer = await c.call('/projects/3/hooks', { as: 'admin', headers: { Sudo: added.json.username } });
    expect([developer.status, developer.json]).toEqual([403, { message: '403 Forbidden' }]);
    const removed = await c.call(`/projects/2/hooks/${hook.id}`, { as: 'admin', method: 'DELETE' });
    expect(removed.status).toBe(204);
  });

  it('a new url without a new token drops the token; the update answers the hook', async () => {
    const hook = (await post('/projects/2/hooks', { url: `${base}/a`, token: 'first-token' })).json;
    const moved = await c.call(`/projects/2/hooks/${hook.id}`, {
      as: 'admin',
      method: 'PUT',
      json: { url: `${base}/b`, push_events: false },
    });
    expect([moved.status, moved.json.url, moved.json.push_events]).toEqual([200, `${base}/b`, false]);
    received.length = 0;
    answer = 200;
    const tested = await post(`/projects/2/hooks/${hook.id}/test/tag_push_events`);
    expect([tested.status, tested.json]).toEqual([201, { message: '201 Created' }]);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['x-gitlab-event']).toBe('Tag Push Hook');
    expect(received[0]!.headers['x-gitlab-token']).toBeUndefined();
  });
});

describe('POST /projects/:id/hooks/:hook_id/test/:trigger', () => {
  it('calls a loopback receiver with the token, logs the delivery, and answers 201', async () => {
    const hook = (await post('/projects/1/hooks', { url: `${base}/deliver`, token: 'deliver-token' })).json;
    received.length = 0;
    answer = 200;
    const r = await post(`/projects/1/hooks/${hook.id}/test/push_events`);
    expect([r.status, r.json]).toEqual([201, { message: '201 Created' }]);
    expect(received.map((x) => [x.headers['x-gitlab-event'], x.headers['x-gitlab-token']])).toEqual([['Push Hook', 'deliver-token']]);
    const log = await c.call(`/projects/1/hooks/${hook.id}/events`, { as: 'admin' });
    expect(log.status).toBe(200);
    expect(log.json).toHaveLength(1);
    expect(log.json[0]).toMatchObject({ trigger: 'push_hooks', response_status: '200', response_body: 'ok', url: `${base}/deliver` });
    expect(log.json[0].request_headers['X-Gitlab-Token']).toBe('[REDACTED]');
  });

  it('answers 422 with the receiver’s body, or the connection error for a host that is not loopback', async () => {
    const hook = (await post('/projects/1/hooks', { url: `${base}/refuse` })).json;
    answer = 500;
    const refused = await post(`/projects/1/hooks/${hook.id}/test/push_events`);
    expect([refused.status, refused.json]).toEqual([422, { message: 'receiver refused' }]);
    answer = 200;
    const away = (await post('/projects/1/hooks', { url: 'https://hooks.example.com/away' })).json;
    const count = received.length;
    const failed = await post(`/projects/1/hooks/${away.id}/test/push_events`);
    expect([failed.status, failed.json]).toEqual([
      422,
      { message: 'Failed to open TCP connection to hooks.example.com:443 (the sandbox delivers only to loopback addresses)' },
    ]);
    expect(received.length).toBe(count);
    const log = await c.call(`/projects/1/hooks/${away.id}/events?status=server_failure`, { as: 'admin' });
    expect(log.json.map((d: { response_status: string }) => d.response_status)).toEqual(['internal error']);
  });

  it('words a refused loopback connection as Net::HTTP does', async () => {
    // A port just freed: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const hook = (await post('/projects/1/hooks', { url: `http://127.0.0.1:${port}/gone` })).json;
    const refused = await post(`/projects/1/hooks/${hook.id}/test/push_events`);
    expect([refused.status, refused.json]).toEqual([
      422,
      { message: `Failed to open TCP connection to 127.0.0.1:${port} (Connection refused - connect(2) for "127.0.0.1" port ${port})` },
    ]);
  });

  it('past three failures in a row the hook is disabled for a minute, then two; a success clears it', async () => {
    const away = (await post('/projects/1/hooks', { url: 'https://down.example.com/' })).json;
    const state = async () => {
      const hook = (await c.call(`/projects/1/hooks/${away.id}`, { as: 'admin' })).json;
      return [hook.alert_status, hook.disabled_until === null ? null : Date.parse(hook.disabled_until) - clock.now()];
    };
    for (let i = 0; i < 3; i++) expect((await post(`/projects/1/hooks/${away.id}/test/push_events`)).status).toBe(422);
    expect(await state()).toEqual(['executable', null]);
    expect((await post(`/projects/1/hooks/${away.id}/test/push_events`)).status).toBe(422);
    expect(await state()).toEqual(['temporarily_disabled', 60_000]);
    // A test runs even while the hook is disabled, but a failure then does not count.
    expect((await post(`/projects/1/hooks/${away.id}/test/push_events`)).status).toBe(422);
    expect(await state()).toEqual(['temporarily_disabled', 60_000]);
    clock.advance(60_001);
    expect(await state()).toEqual(['executable', -1]);
    expect((await post(`/projects/1/hooks/${away.id}/test/push_events`)).status).toBe(422);
    expect(await state()).toEqual(['temporarily_disabled', 120_000]);
    await c.call(`/projects/1/hooks/${away.id}`, { as: 'admin', method: 'PUT', json: { url: `${base}/back` } });
    expect((await post(`/projects/1/hooks/${away.id}/test/push_events`)).status).toBe(201);
    expect(await state()).toEqual(['executable', null]);
  });

  it('refuses an unknown trigger (400), a project without the sample data (422), and the wiki (422)', async () => {
    const hook = (await post('/projects/1/hooks', { url: `${base}/x` })).json;
    const bad = await post(`/projects/1/hooks/${hook.id}/test/nothing_events`);
    expect([bad.status, bad.json]).toEqual([400, { error: 'trigger does not have a valid value' }]);
    const wiki = await post(`/projects/1/hooks/${hook.id}/test/wiki_page_events`);
    expect([wiki.status, wiki.json]).toEqual([422, { message: 'Ensure the wiki is enabled and has pages.' }]);
    const project = (await post('/projects', { name: 'hookless' })).json;
    const other = (await post(`/projects/${project.id}/hooks`, { url: `${base}/y` })).json;
    const issues = await post(`/projects/${project.id}/hooks/${other.id}/test/issues_events`);
    expect([issues.status, issues.json]).toEqual([422, { message: 'Ensure the project has issues.' }]);
    const unknown = await post('/projects/1/hooks/999999/test/push_events');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('group and system hooks', () => {
  it('group hooks need the owner role and show group_id and the group events', async () => {
    const refused = await post('/groups/acme/hooks', { url: `${base}/g` }, 'user');
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const created = await post('/groups/acme/hooks', { url: `${base}/g`, member_events: true });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ group_id: 1, member_events: true, subgroup_events: false, push_events: true });
    expect(created.json).not.toHaveProperty('project_id');
  });

  it('system hooks are the administrator’s: 403 for others; a test answers the sample data', async () => {
    const refused = await c.call('/hooks', { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const created = await post('/hooks', { url: `${base}/system`, repository_update_events: true });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ organization_id: 1, repository_update_events: true, alert_status: 'executable' });
    expect(created.json).not.toHaveProperty('issues_events');
    answer = 500;
    const tested = await post(`/hooks/${created.json.id}`);
    answer = 200;
    expect(tested.status).toBe(201);
    expect(tested.json).toMatchObject({ event_name: 'project_create', name: 'Ruby' });
    expect((await c.call(`/hooks/${created.json.id}`, { as: 'admin' })).json.alert_status).toBe('executable');
  });
});

describe('url variables and custom headers (lib/api/hooks/url_variables.rb, custom_headers.rb)', () => {
  it('sets and unsets them (204), shows only their names on a single read, and delivers with them', async () => {
    const hook = (await post('/projects/2/hooks', { url: `${base}/{area}/hook` })).json;
    const put = (path: string, json: Record<string, unknown>) =>
      c.call(`/projects/2/hooks/${hook.id}/${path}`, { as: 'admin', method: 'PUT', json });
    expect((await put('url_variables/area', { value: 'builds' })).status).toBe(204);
    expect((await put('custom_headers/X-Custom', { value: 'very-secret' })).status).toBe(204);
    const one = await c.call(`/projects/2/hooks/${hook.id}`, { as: 'admin' });
    expect([one.json.url_variables, one.json.custom_headers]).toEqual([[{ key: 'area' }], [{ key: 'X-Custom' }]]);
    expect(JSON.stringify(one.json)).not.toContain('very-secret');
    const count = received.length;
    expect((await post(`/projects/2/hooks/${hook.id}/test/push_events`)).status).toBe(201);
    expect([received.length, received.at(-1)!.path, received.at(-1)!.headers['x-custom']]).toEqual([
      count + 1,
      '/builds/hook',
      'very-secret',
    ]);
    const log = await c.call(`/projects/2/hooks/${hook.id}/events`, { as: 'admin' });
    expect(log.json[0].request_headers['X-Custom']).toBe('[REDACTED]');
    const bad = await put('custom_headers/bad%20key', { value: 'x' });
    expect([bad.status, bad.json]).toEqual([422, { error: 'Illegal key or value' }]);
    const missing = await put('url_variables/area', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'value is missing' }]);
    const unset = await c.call(`/projects/2/hooks/${hook.id}/url_variables/area`, { as: 'admin', method: 'DELETE' });
    expect(unset.status).toBe(204);
    expect((await c.call(`/projects/2/hooks/${hook.id}`, { as: 'admin' })).json.url_variables).toEqual([]);
    const other = await c.call('/projects/2/hooks/999999/url_variables/area', { as: 'admin', method: 'PUT', json: { value: 'x' } });
    expect([other.status, other.json]).toEqual([404, { message: '404 Not found' }]);
  });
});
