// Instance statistics and license: gitlab-org/gitlab lib/api/statistics.rb (`authenticated_as_admin!`,
// Entities::ApplicationStatistics: every count through `number_with_delimiter`, so strings such as "1,234"),
// ee/lib/api/license.rb and EE::API::Entities::GitlabLicense(WithActiveUsers) (admin; EE only).
import { describe, expect, it } from 'vitest';
import { ed25519Key } from '../../support/public-keys.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 300 });
const admin = (path: string) => c.call(path, { as: 'admin' });
const total = async (path: string) => Number((await admin(path)).headers['x-total']).toLocaleString('en-US');

describe('GET /application/statistics', () => {
  it("counts the instance's records as strings with thousands delimiters", async () => {
    const r = await admin('/application/statistics');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'forks',
      'issues',
      'merge_requests',
      'notes',
      'snippets',
      'ssh_keys',
      'milestones',
      'users',
      'projects',
      'groups',
      'active_users',
    ]);
    for (const value of Object.values(r.json)) expect(value).toMatch(/^\d{1,3}(,\d{3})*$/);
    // Every issue and merge request, also those of projects that turned them off, which no listing shows.
    expect(r.json.issues).toContain(',');
    expect(r.json.projects).toBe(await total('/projects'));
    expect(r.json.groups).toBe(await total('/groups?all_available=true'));
    // Users' keys and deploy keys share the `keys` table the service counts (`Key`): jdoe's and the two seeded deploy keys.
    expect([r.json.forks, r.json.ssh_keys]).toEqual(['0', '3']);
  });

  it('follows the world: a fork, an issue, a new user and new SSH and deploy keys are counted', async () => {
    const before = (await admin('/application/statistics')).json;
    expect(
      (await c.call('/projects/1/fork', { as: 'admin', method: 'POST', json: { path: 'counted-fork', name: 'counted-fork' } })).status,
    ).toBe(201);
    expect((await c.call('/projects/1/issues', { as: 'admin', method: 'POST', json: { title: 'counted' } })).status).toBe(201);
    const created = await c.call('/users', {
      as: 'admin',
      method: 'POST',
      json: { email: 'stat@example.com', username: 'stat', name: 'Stat', reset_password: true },
    });
    expect(created.status).toBe(201);
    const key = { title: 'counted', key: ed25519Key().line };
    expect((await c.call('/user/keys', { as: 'user', method: 'POST', json: key })).status).toBe(201);
    const deployKey = { title: 'counted-deploy', key: ed25519Key().line };
    expect((await c.call('/projects/1/deploy_keys', { as: 'admin', method: 'POST', json: deployKey })).status).toBe(201);
    const after = (await admin('/application/statistics')).json;
    const n = (s: string) => Number(s.replace(/,/g, ''));
    const delta = (key: string) => n(after[key]) - n(before[key]);
    expect(['forks', 'issues', 'users', 'active_users', 'projects', 'ssh_keys'].map(delta)).toEqual([1, 1, 1, 1, 1, 2]);
  });

  it('refuses a non-administrator (403)', async () => {
    const r = await c.call('/application/statistics', { as: 'user' });
    expect([r.status, r.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('GET /license', () => {
  it('answers the premium license with its active users, to administrators only', async () => {
    const r = await admin('/license');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'id',
      'plan',
      'created_at',
      'starts_at',
      'expires_at',
      'historical_max',
      'maximum_user_count',
      'licensee',
      'add_ons',
      'expired',
      'overage',
      'user_limit',
      'active_users',
    ]);
    expect([r.json.plan, r.json.expired, r.json.active_users]).toEqual([
      'premium',
      false,
      Number((await admin('/application/statistics')).json.active_users.replace(/,/g, '')),
    ]);
    const user = await c.call('/license', { as: 'user' });
    expect([user.status, user.json]).toEqual([403, { message: '403 Forbidden' }]);
  });
});
