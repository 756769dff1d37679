// What an administrator sees of a user (gitlab-org/gitlab lib/api/entities/user_public.rb and
// user_with_admin.rb; service-endpoints.md §11 "GET /user 200 (UserWithAdmin for admins)"), and the profile
// attributes POST and PUT /users take (lib/api/users.rb `optional_attributes`, `all_or_none_of :extern_uid, :provider`).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });

const ADMIN_FIELDS = [
  'identities',
  'projects_limit',
  'can_create_group',
  'can_create_project',
  'current_sign_in_at',
  'last_activity_on',
  'private_profile',
  'commit_email',
  'note',
  'theme_id',
  'color_scheme_id',
  'created_by',
];

describe('§11 users as an administrator sees them', () => {
  it('GET /users/:id and the admin list carry the admin entity fields; a regular user sees none of them', async () => {
    const one = await c.call('/users/3', { as: 'admin' });
    expect(ADMIN_FIELDS.filter((k) => !(k in one.json))).toEqual([]);
    expect([one.json.identities, one.json.projects_limit, one.json.can_create_project, one.json.commit_email]).toEqual([
      [],
      100000,
      true,
      one.json.email,
    ]);
    const list = await c.call('/users?per_page=2', { as: 'admin' });
    expect(ADMIN_FIELDS.filter((k) => !(k in list.json[0]))).toEqual([]);
    const other = await c.call('/users/3', { as: 'user' });
    expect(ADMIN_FIELDS.filter((k) => k in other.json)).toEqual([]);
  });

  it('the user themself sees their own private fields but not the note', async () => {
    const me = await c.call('/user', { as: 'user' });
    expect([me.json.projects_limit, me.json.identities, 'note' in me.json]).toEqual([100000, [], false]);
    expect(me.json.last_activity_on).toBe(new Date().toISOString().slice(0, 10));
  });

  it('PUT /users/:id with provider and extern_uid adds the identity; the profile attributes are kept', async () => {
    const r = await c.call('/users/4', {
      as: 'admin',
      method: 'PUT',
      json: {
        provider: 'ldapmain',
        extern_uid: 'uid=ann,ou=people',
        projects_limit: 0,
        can_create_group: false,
        note: 'contractor',
        bio: 'hi',
      },
    });
    expect(r.status).toBe(200);
    expect([r.json.identities, r.json.projects_limit, r.json.can_create_project, r.json.can_create_group, r.json.note, r.json.bio]).toEqual(
      [[{ provider: 'ldapmain', extern_uid: 'uid=ann,ou=people', saml_provider_id: null }], 0, false, false, 'contractor', 'hi'],
    );
    const again = await c.call('/users/4', { as: 'admin', method: 'PUT', json: { provider: 'ldapmain', extern_uid: 'uid=ann2' } });
    expect(again.json.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid=ann2', saml_provider_id: null }]);
    const read = await c.call('/users/4', { as: 'admin' });
    expect(read.json.identities).toEqual(again.json.identities);
  });

  it('provider without extern_uid is the all-or-none 400, and nothing changes', async () => {
    const r = await c.call('/users/5', { as: 'admin', method: 'PUT', json: { provider: 'ldapmain', note: 'x' } });
    expect([r.status, r.json]).toEqual([400, { error: 'extern_uid, provider provide all or none of parameters' }]);
    const read = await c.call('/users/5', { as: 'admin' });
    expect([read.json.note, read.json.identities]).toEqual([null, []]);
  });

  it('POST /users takes the same attributes', async () => {
    const r = await c.call('/users', {
      as: 'admin',
      method: 'POST',
      json: {
        email: 'n@example.com',
        name: 'N',
        username: 'nn',
        password: 'long-enough',
        provider: 'github',
        extern_uid: '42',
        private_profile: true,
      },
    });
    expect([r.status, r.json.identities, r.json.private_profile]).toEqual([
      201,
      [{ provider: 'github', extern_uid: '42', saml_provider_id: null }],
      true,
    ]);
  });
});
