// Environments and deployments: the service's lib/api/environments.rb (name and search cannot be used
// together, a search under 3 characters, `stop` answering the environment even when the caller may
// not stop it, `stop_stale` refusing a `before` within the last week as `Invalid Date`),
// app/policies/environment_policy.rb (`~stopped` prevents `destroy_environment`),
// app/models/environment.rb (`deployed_and_updated_before`, the slug), app/services/environments/
// stop_stale_service.rb (available, not updated or deployed to since `before`, protected ones kept),
// lib/api/deployments.rb with app/finders/deployments_finder.rb, and ee/lib/ee/api/deployments.rb with
// ee/app/services/deployments/approval_service.rb (the refusals' texts and order).
// The sandbox's choices: src/sandbox/README.md.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const NOW = Date.UTC(2026, 0, 15, 10, 30);
const DAY = 86_400_000;
const c = useSandbox({ projects: 5, clock: () => NOW });
const as = (username: string) => ({ as: 'admin' as const, headers: { Sudo: username } });
const send = (path: string, method: string, json: Record<string, unknown>, who: object = { as: 'admin' }) =>
  c.call(path, { ...who, method, json });
const names = (r: { json: unknown }) => (r.json as Array<{ name: string }>).map((e) => e.name);

async function member(project: number, userId: number, level: number): Promise<string> {
  const r = await send(`/projects/${project}/members`, 'POST', { user_id: userId, access_level: level });
  expect(r.status).toBe(201);
  return r.json.username;
}

describe('GET /projects/:id/environments', () => {
  it('lists the seeded environments with their project and state; name, search and states filter', async () => {
    const all = await c.call('/projects/1/environments', { as: 'admin' });
    expect(all.status).toBe(200);
    expect(all.headers['x-total']).toBe('9');
    expect(names(all)).toEqual([
      'production',
      'staging',
      'review/feature-login',
      'review/fix-issue-1',
      'review/develop',
      'review/search-v2',
      'review/broken-build',
      'review/docs',
      'canary',
    ]);
    expect(all.json[0]).toMatchObject({
      id: 1,
      name: 'production',
      slug: 'production',
      external_url: null,
      tier: 'production',
      state: 'available',
      updated_at: new Date(NOW - 2 * DAY).toISOString(),
      auto_stop_at: null,
    });
    expect(all.json[0].project.path_with_namespace).toBe(c.sb.state.project(1)!.fullPath);
    expect('last_deployment' in all.json[0]).toBe(false);
    expect(all.json[2].slug).toMatch(/^review-feature-lo-[a-z0-9]{6}$/);
    const byName = await c.call('/projects/1/environments?name=review%2Fdocs', { as: 'admin' });
    expect(names(byName)).toEqual(['review/docs']);
    const search = await c.call('/projects/1/environments?search=rev&states=available', { as: 'admin' });
    expect(names(search)).toEqual(['review/feature-login', 'review/fix-issue-1', 'review/develop', 'review/docs']);
    const stopped = await c.call('/projects/1/environments?states=stopping', { as: 'admin' });
    expect(names(stopped)).toEqual(['review/broken-build']);
  });

  it('takes a CI job token on the job’s own project and refuses it elsewhere (reference §4.5)', async () => {
    const own = await c.call('/projects/2/environments', { headers: { 'JOB-TOKEN': c.sb.tokens.job } });
    expect([own.status, own.headers['x-total']]).toEqual([200, '9']);
    const other = await c.call('/projects/4/deployments', { headers: { 'JOB-TOKEN': c.sb.tokens.job } });
    expect(other.status).toBe(403);
    expect(other.json.message).toMatch(/^403 Forbidden - Authentication by CI\/CD job token not allowed from /);
  });

  it('refuses a short search, name with search, and an unknown state, as Grape and the endpoint do', async () => {
    const short = await c.call('/projects/1/environments?search=re', { as: 'admin' });
    expect([short.status, short.json]).toEqual([400, { message: '400 Bad request - Search query is less than 3 characters' }]);
    const both = await c.call('/projects/1/environments?search=review&name=x', { as: 'admin' });
    expect([both.status, both.json]).toEqual([400, { error: 'name, search cannot be used together' }]);
    const state = await c.call('/projects/1/environments?states=gone', { as: 'admin' });
    expect([state.status, state.json]).toEqual([400, { error: 'states does not have a valid value' }]);
  });

  it('a single read carries last_deployment without its environment, and no project', async () => {
    const one = await c.call('/projects/1/environments/1', { as: 'admin' });
    expect(one.status).toBe(200);
    expect('project' in one.json).toBe(false);
    expect(one.json.last_deployment).toMatchObject({ id: 3, iid: 3, status: 'blocked' });
    expect('environment' in one.json.last_deployment).toBe(false);
    expect(one.json.last_deployment.deployable).toMatchObject({ id: 5, name: 'build' });
    const none = await c.call('/projects/1/environments/999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('environment writes', () => {
  it('creates with a guessed tier, refuses a taken or malformed name and a slug, updates, stops and then deletes', async () => {
    const made = await send('/projects/2/environments', 'POST', { name: 'review/new-thing', external_url: 'https://new.example.com' });
    expect([made.status, made.json.tier, made.json.state, made.json.created_at]).toEqual([
      201,
      'development',
      'available',
      new Date(NOW).toISOString(),
    ]);
    const taken = await send('/projects/2/environments', 'POST', { name: 'staging' });
    expect([taken.status, taken.json]).toEqual([400, { message: { name: ['has already been taken'] } }]);
    const slash = await send('/projects/2/environments', 'POST', { name: 'review/' });
    expect(slash.json.message.name[0]).toMatch(/cannot start or end with '\/'/);
    const slug = await send('/projects/2/environments', 'POST', { name: 'x', slug: 'y' });
    expect([slug.status, slug.json]).toEqual([400, { error: 'slug is automatically generated and cannot be changed' }]);
    const missing = await send('/projects/2/environments', 'POST', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'name is missing' }]);
    const id = made.json.id as number;
    const updated = await send(`/projects/2/environments/${id}`, 'PUT', { tier: 'testing' });
    expect([updated.status, updated.json.tier]).toEqual([200, 'testing']);
    const refused = await send(`/projects/2/environments/${id}`, 'DELETE', {});
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const stopped = await send(`/projects/2/environments/${id}/stop`, 'POST', {});
    expect([stopped.status, stopped.json.state]).toEqual([200, 'stopped']);
    const deleted = await send(`/projects/2/environments/${id}`, 'DELETE', {});
    expect(deleted.status).toBe(204);
  });

  it('by role: a reporter reads, and its stop is answered 200 with the environment unchanged; a guest reads nothing', async () => {
    const reporter = await member(3, 7, 20);
    const guest = await member(3, 8, 10);
    const list = await c.call('/projects/3/environments', as(reporter));
    expect(list.status).toBe(200);
    const stop = await send('/projects/3/environments/21/stop', 'POST', {}, as(reporter));
    expect([stop.status, stop.json.name, stop.json.state]).toEqual([200, 'review/feature-login', 'available']);
    const create = await send('/projects/3/environments', 'POST', { name: 'qa' }, as(reporter));
    expect([create.status, create.json]).toEqual([403, { message: '403 Forbidden' }]);
    const guestList = await c.call('/projects/3/environments', as(guest));
    expect([guestList.status, guestList.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('POST /projects/:id/environments/stop_stale', () => {
  it('refuses a date within the last week or ten years back, and a missing one', async () => {
    const recent = await send('/projects/4/environments/stop_stale', 'POST', { before: new Date(NOW - 6 * DAY).toISOString() });
    expect([recent.status, recent.json]).toEqual([400, { message: '400 Bad request - Invalid Date' }]);
    const ancient = await send('/projects/4/environments/stop_stale', 'POST', { before: '2010-01-01T00:00:00Z' });
    expect([ancient.status, ancient.json]).toEqual([400, { message: '400 Bad request - Invalid Date' }]);
    const missing = await send('/projects/4/environments/stop_stale', 'POST', {});
    expect([missing.status, missing.json]).toEqual([400, { error: 'before is missing' }]);
  });

  it('stops the available environments not updated or deployed to since the date, review apps or not', async () => {
    const r = await send('/projects/4/environments/stop_stale', 'POST', { before: new Date(NOW - 30 * DAY).toISOString() });
    expect([r.status, r.json]).toEqual([200, { message: 'Successfully scheduled stale environments to stop' }]);
    const stopped = await c.call('/projects/4/environments?states=stopped', { as: 'admin' });
    // review/develop (60 days) has a deployment 5 days old; review/broken-build is stopping, not available.
    expect(names(stopped)).toEqual(['review/feature-login', 'review/search-v2', 'review/docs', 'canary']);
  });
});

describe('deployments', () => {
  it('lists with environment, status and updated_after (ordered by updated_at), and reads one with its approvals', async () => {
    const all = await c.call('/projects/1/deployments', { as: 'admin' });
    expect(all.json.map((d: { id: number }) => d.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all.json[0]).toMatchObject({ iid: 1, ref: 'main', status: 'success', environment: { id: 2, name: 'staging' } });
    expect(all.json[0].deployable).toMatchObject({ id: 1, name: 'build', pipeline: { id: 1 } });
    const prod = await c.call('/projects/1/deployments?environment=production&status=blocked', { as: 'admin' });
    expect(prod.json.map((d: { id: number }) => d.id)).toEqual([3]);
    const recent = await c.call(`/projects/1/deployments?updated_after=${new Date(NOW - 6 * DAY).toISOString()}`, { as: 'admin' });
    expect(recent.json.map((d: { id: number }) => d.id)).toEqual([4, 1, 2, 3]);
    const bad = await c.call('/projects/1/deployments?status=done', { as: 'admin' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'status does not have a valid value' }]);
    const one = await c.call('/projects/1/deployments/3', { as: 'admin' });
    expect([one.json.pending_approval_count, one.json.approvals]).toEqual([1, []]);
  });

  it('answers the approval service’s refusals in its order, then approves a blocked deployment', async () => {
    const creator = c.sb.state.user(c.sb.state.project(5)!.creatorId)!.username;
    const developer = await member(5, 5, 30);
    const approver = creator === 'jdoe' ? 'root' : 'jdoe';
    const post = (id: number, body: Record<string, unknown>, who: object = as(approver)) =>
      send(`/projects/5/deployments/${id}/approval`, 'POST', body, who);
    const refused = (message: string) => [400, { message }];
    const staging = await post(25, { status: 'approved' });
    expect([staging.status, staging.json]).toEqual(refused('This environment is not protected.'));
    const own = await post(27, { status: 'approved' }, as(creator));
    expect([own.status, own.json]).toEqual(
      refused('You cannot approve your own deployment. This configuration can be adjusted in the protected environment settings.'),
    );
    const done = await post(26, { status: 'approved' });
    expect([done.status, done.json]).toEqual(refused('This deployment is not waiting for approvals.'));
    const dev = await post(27, { status: 'approved' }, as(developer));
    expect([dev.status, dev.json]).toEqual(
      refused("You don't have permission to approve this deployment. Contact the project or group owner for help."),
    );
    const bad = await post(27, { status: 'maybe' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'status does not have a valid value' }]);
    const ok = await post(27, { status: 'approved', comment: 'ship it' });
    expect([ok.status, ok.json.status, ok.json.comment, ok.json.user.username]).toEqual([201, 'approved', 'ship it', approver]);
    const after = await c.call('/projects/5/deployments/27', { as: 'admin' });
    expect([after.json.status, after.json.pending_approval_count, after.json.approvals.length]).toEqual(['created', 0, 1]);
    const again = await post(27, { status: 'approved' });
    expect([again.status, again.json]).toEqual(refused('This deployment is not waiting for approvals.'));
  });

  it('the approval route is the premium tier’s: the free tier answers the router’s 404', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.js');
    const free = await startSandbox({ projects: 2, tier: 'free' });
    try {
      const r = await fetch(`${free.url}/api/v4/projects/1/deployments/3/approval`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': free.tokens.admin, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'approved' }),
      });
      expect([r.status, await r.json()]).toEqual([404, { error: '404 Not Found' }]);
    } finally {
      await free.close();
    }
  });
});

describe('DELETE /projects/:id/environments/review_apps (Environments::ScheduleToDeleteReviewAppsService)', () => {
  it('names the stopped review apps created before `before` (default 30 days ago), oldest first, up to `limit`', async () => {
    const r = await send('/projects/5/environments/review_apps', 'DELETE', {});
    expect(r.status).toBe(200);
    expect(r.json.unprocessable_entries).toEqual([]);
    expect(r.json.scheduled_entries.map((e: { name: string }) => e.name)).toEqual(['review/search-v2']);
    expect(Object.keys(r.json.scheduled_entries[0])).toEqual(['id', 'name', 'slug', 'external_url', 'created_at', 'updated_at']);
    const older = await send('/projects/5/environments/review_apps', 'DELETE', { before: new Date(NOW - 200 * DAY).toISOString() });
    expect(older.json.scheduled_entries).toEqual([]);
    const bad = await send('/projects/5/environments/review_apps', 'DELETE', { limit: 0 });
    expect([bad.status, bad.json]).toEqual([400, { error: 'limit does not have a valid value' }]);
    expect((await c.call('/projects/5/environments?per_page=100', { as: 'admin' })).json.length).toBe(9);
  });

  it('answers 401 with empty lists to a reporter, who may not destroy environments', async () => {
    const reporter = await member(5, 7, 20);
    const r = await send('/projects/5/environments/review_apps', 'DELETE', { dry_run: false }, as(reporter));
    expect([r.status, r.json]).toEqual([
      401,
      {
        message: {
          scheduled_entries: [],
          unprocessable_entries: [],
          message: 'You do not have permission to destroy environments in this project',
        },
      },
    ]);
  });
});
