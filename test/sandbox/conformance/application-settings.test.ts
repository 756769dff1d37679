// PUT /application/settings (gitlab-org/gitlab lib/api/settings.rb: declared optional attributes, at least one
// of them; undeclared parameters are dropped by Grape) applies what the sandbox models: the API throttles
// (service-behaviour.md §3.1: 429 text, RateLimit-* headers with the limit normalised to 60 s, Retry-After),
// the default visibilities and projects limit, the storage weights (§10).
import { describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const put = (json: unknown) => c.call('/application/settings', { as: 'admin', method: 'PUT', json });

describe('PUT /application/settings', () => {
  it('turns the authenticated API throttle on: the request past the limit is the Rack::Attack 429', async () => {
    const r = await put({
      throttle_authenticated_api_enabled: true,
      throttle_authenticated_api_requests_per_period: 2,
      throttle_authenticated_api_period_in_seconds: 86400,
      rate_limiting_response_text: 'Slow down',
    });
    expect([r.status, r.json.throttle_authenticated_api_enabled, r.json.throttle_authenticated_api_requests_per_period]).toEqual([
      200,
      true,
      2,
    ]);
    const token = c.sb.tokens.readApi;
    const first = await req(c.sb.url, '/api/v4/projects/1', { token });
    expect([first.status, first.headers['ratelimit-name'], first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']]).toEqual(
      [200, 'throttle_authenticated_api', '1', '1'],
    );
    expect((await req(c.sb.url, '/api/v4/projects/1', { token })).status).toBe(200);
    const third = await req(c.sb.url, '/api/v4/projects/1', { token });
    expect([third.status, third.text, third.headers['content-type']]).toEqual([429, 'Slow down', 'text/plain']);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(86400);
    const anonymous = await req(c.sb.url, '/api/v4/projects/1');
    expect([anonymous.status, anonymous.headers['ratelimit-name']]).toEqual([200, undefined]);
    const off = await put({ throttle_authenticated_api_enabled: false });
    expect(off.json.throttle_authenticated_api_enabled).toBe(false);
    expect((await req(c.sb.url, '/api/v4/projects/1', { token })).status).toBe(200);
  });

  it('refuses a throttle limit that is not positive with the model message, changing nothing', async () => {
    const r = await put({ throttle_authenticated_api_requests_per_period: 0, default_project_visibility: 'public' });
    expect([r.status, r.json]).toEqual([400, { message: { throttle_authenticated_api_requests_per_period: ['must be greater than 0'] } }]);
    const now = await c.call('/application/settings', { as: 'admin' });
    expect(now.json.default_project_visibility).toBe('private');
  });

  it('new projects, groups and users take the defaults it sets', async () => {
    const r = await put({ default_project_visibility: 'internal', default_group_visibility: 'public', default_projects_limit: 5 });
    expect([r.json.default_project_visibility, r.json.default_group_visibility, r.json.default_projects_limit]).toEqual([
      'internal',
      'public',
      5,
    ]);
    const p = await c.call('/projects', { as: 'user', method: 'POST', json: { name: 'defaulted' } });
    const g = await c.call('/groups', { as: 'admin', method: 'POST', json: { name: 'defaulted', path: 'defaulted' } });
    const u = await c.call('/users', {
      as: 'admin',
      method: 'POST',
      json: { email: 'd@example.com', name: 'D', username: 'dd', password: 'long-enough' },
    });
    expect([p.json.visibility, g.json.visibility, u.json.projects_limit]).toEqual(['internal', 'public', 5]);
  });

  it('ignores an undeclared key, which alone is the at-least-one 400', async () => {
    const alone = await put({ no_such_setting: 1 });
    expect(alone.status).toBe(400);
    expect(alone.json.error).toMatch(
      /^default_projects_limit, .*, repository_storages_weighted are missing, at least one parameter must be provided$/,
    );
    const mixed = await put({ no_such_setting: 1, signup_enabled: true });
    expect([mixed.status, mixed.json.signup_enabled, 'no_such_setting' in mixed.json]).toEqual([200, true, false]);
    const bad = await put({ default_group_visibility: 'secret' });
    expect([bad.status, bad.json]).toEqual([400, { error: 'default_group_visibility does not have a valid value' }]);
  });
});
