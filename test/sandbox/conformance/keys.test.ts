// SSH, deploy and GPG keys: the service's lib/api/users.rb (`/user/keys`, `/users/:id/keys`, `/user/gpg_keys`,
// `/users/:id/gpg_keys`; `not_found!('Key')`, `not_found!('GPG Key')`, deletes 204), lib/api/deploy_keys.rb
// (a project's keys need a maintainer; the instance's an administrator; adding a key joins an existing one;
// `enable` 201 or `404 Deploy key Not Found`; `at_least_one_of :title, :can_push`), app/models/key.rb
// (fingerprints of the blob, `fingerprint_sha256` unique across users' and deploy keys, `type is forbidden`),
// gpg_key.rb, and entities ssh_key.rb (`publishable_key` as `key`), deploy_key.rb, deploy_keys_project.rb,
// gpg_key.rb. The sandbox's choices are in src/sandbox/README.md, "SSH, deploy and GPG keys".
import { describe, expect, it } from 'vitest';
import { dsaKeyLine, ed25519Key, gpgPublicKey } from '../../support/public-keys.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const post = (path: string, json: Record<string, unknown>, as: 'admin' | 'user' = 'admin') => c.call(path, { as, method: 'POST', json });

describe('users’ SSH keys', () => {
  it('adds a key to the caller, shows it as the publishable key, and lists it for anyone', async () => {
    const k = ed25519Key('me@laptop');
    const added = await post('/user/keys', { title: 'laptop', key: k.line }, 'user');
    expect(added.status).toBe(201);
    expect(Object.keys(added.json)).toEqual(['id', 'title', 'created_at', 'expires_at', 'key', 'usage_type']);
    expect(added.json.key).toBe(`${k.line.split(' ').slice(0, 2).join(' ')} Jane Doe (127.0.0.1)`);
    expect(added.json.usage_type).toBe('auth_and_signing');
    const listed = await c.call('/users/jdoe/keys');
    expect([listed.status, listed.json.map((x: { title: string }) => x.title)]).toEqual([200, ['jdoe-laptop', 'laptop']]);
    const gone = await c.call(`/user/keys/${added.json.id}`, { as: 'user', method: 'DELETE' });
    expect(gone.status).toBe(204);
    const again = await c.call(`/user/keys/${added.json.id}`, { as: 'user' });
    expect([again.status, again.json]).toEqual([404, { message: '404 Key Not Found' }]);
  });

  it('refuses a key taken by anyone (a deploy key too), a text that is no key, a forbidden type, and missing fields', async () => {
    const k = ed25519Key();
    expect((await post('/users/3/keys', { title: 'a', key: k.line })).status).toBe(201);
    const taken = await post('/user/keys', { title: 'b', key: k.line }, 'user');
    expect([taken.status, taken.json]).toEqual([400, { message: { fingerprint_sha256: ['has already been taken'] } }]);
    const deploy = (await c.call('/projects/1/deploy_keys', { as: 'admin' })).json[0].key as string;
    const sharedWithDeploy = await post('/user/keys', { title: 'c', key: deploy }, 'user');
    expect(sharedWithDeploy.json).toEqual({ message: { fingerprint_sha256: ['has already been taken'] } });
    const junk = await post('/user/keys', { title: 'd', key: 'not a key' }, 'user');
    expect([junk.status, junk.json]).toEqual([
      400,
      {
        message: {
          key: ['is invalid', 'type is forbidden. Must be RSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'],
          fingerprint_sha256: ['cannot be generated'],
        },
      },
    ]);
    const dsa = await post('/user/keys', { title: 'e', key: dsaKeyLine() }, 'user');
    expect([dsa.status, dsa.json]).toEqual([
      400,
      { message: { key: ['type is forbidden. Must be RSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'] } },
    ]);
    const missing = await post('/user/keys', {}, 'user');
    expect([missing.status, missing.json]).toEqual([400, { error: 'key is missing, title is missing' }]);
  });

  it('only an administrator adds or deletes another user’s key; an unknown user is 404', async () => {
    const refused = await post('/users/3/keys', { title: 'x', key: ed25519Key().line }, 'user');
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const unknown = await c.call('/users/999999/keys');
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 User Not Found' }]);
  });
});

describe('GPG keys', () => {
  it('adds an armored key, refuses it twice and refuses a text that is none', async () => {
    const g = gpgPublicKey('conformance');
    const added = await post('/user/gpg_keys', { key: g.armored }, 'user');
    expect([added.status, Object.keys(added.json)]).toEqual([201, ['id', 'key', 'created_at']]);
    const byName = await post('/users/jdoe/gpg_keys', { key: g.armored });
    expect([byName.status, byName.json]).toEqual([400, { error: 'id is invalid' }]);
    const twice = await post('/users/2/gpg_keys', { key: g.armored });
    expect([twice.status, twice.json]).toEqual([
      400,
      { message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] } },
    ]);
    const junk = await post('/user/gpg_keys', { key: 'nope' }, 'user');
    expect(junk.json).toEqual({ message: { key: ['is invalid'], fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } });
    const removed = await c.call(`/user/gpg_keys/${added.json.id}`, { as: 'user', method: 'DELETE' });
    expect(removed.status).toBe(204);
    const unknown = await c.call(`/users/2/gpg_keys/${added.json.id}`, { as: 'admin', method: 'DELETE' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 GPG Key Not Found' }]);
  });
});

describe('deploy keys', () => {
  it('a project’s keys carry both fingerprints and can_push; adding the same text again answers the link', async () => {
    const k = ed25519Key('deployer');
    const added = await post('/projects/2/deploy_keys', { title: 'deployer', key: k.line, can_push: true }, 'user');
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ title: 'deployer', key: k.line, fingerprint: k.md5, fingerprint_sha256: k.sha256, can_push: true });
    expect(Object.keys(added.json)).toEqual([
      'id',
      'title',
      'created_at',
      'expires_at',
      'key',
      'usage_type',
      'fingerprint',
      'fingerprint_sha256',
      'can_push',
    ]);
    const again = await post('/projects/2/deploy_keys', { title: 'other', key: k.line }, 'user');
    expect([again.status, again.json.id, again.json.title]).toEqual([201, added.json.id, 'deployer']);
    const elsewhere = await post('/projects/3/deploy_keys', { title: 'other', key: k.line }, 'user');
    expect([elsewhere.status, elsewhere.json.id, elsewhere.json.can_push]).toEqual([201, added.json.id, false]);
  });

  it('a key someone else holds is refused under deploy_key.; enable links a public key or is 404', async () => {
    const mine = ed25519Key();
    expect((await post('/user/keys', { title: 'mine', key: mine.line }, 'user')).status).toBe(201);
    const taken = await post('/projects/2/deploy_keys', { title: 'x', key: mine.line }, 'user');
    expect([taken.status, taken.json]).toEqual([400, { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } }]);
    const enabled = await post('/projects/2/deploy_keys/3/enable', {}, 'user');
    expect([enabled.status, enabled.json.title, enabled.json.can_push]).toEqual([201, 'fleet-readonly', undefined]);
    const notUsable = await post('/projects/2/deploy_keys/999/enable', {}, 'user');
    expect([notUsable.status, notUsable.json]).toEqual([404, { message: '404 Deploy key Not Found' }]);
  });

  it('update needs title or can_push; delete unlinks and a key left unused goes', async () => {
    const k = ed25519Key();
    const added = (await post('/projects/2/deploy_keys', { title: 'temp', key: k.line })).json;
    const none = await c.call(`/projects/2/deploy_keys/${added.id}`, { as: 'admin', method: 'PUT', json: {} });
    expect([none.status, none.json]).toEqual([400, { error: 'title, can_push are missing, at least one parameter must be provided' }]);
    const changed = await c.call(`/projects/2/deploy_keys/${added.id}`, {
      as: 'admin',
      method: 'PUT',
      json: { can_push: true, title: 'renamed' },
    });
    expect([changed.status, changed.json.can_push, changed.json.title]).toEqual([200, true, 'renamed']);
    expect((await c.call(`/projects/2/deploy_keys/${added.id}`, { as: 'admin', method: 'DELETE' })).status).toBe(204);
    const gone = await c.call(`/projects/2/deploy_keys/${added.id}`, { as: 'admin', method: 'DELETE' });
    expect([gone.status, gone.json]).toEqual([404, { message: '404 Deploy key Not Found' }]);
    const all = await c.call('/deploy_keys', { as: 'admin' });
    expect(all.json.map((x: { id: number }) => x.id)).not.toContain(added.id);
  });

  it('the instance’s keys are an administrator’s: listed with the projects using them, created public', async () => {
    const refused = await c.call('/deploy_keys', { as: 'user' });
    expect([refused.status, refused.json]).toEqual([403, { message: '403 Forbidden' }]);
    const k = ed25519Key();
    const created = await post('/deploy_keys', { title: 'fleet-2', key: k.line });
    expect([created.status, created.json.fingerprint_sha256]).toEqual([201, k.sha256]);
    const onlyPublic = await c.call('/deploy_keys?public=true', { as: 'admin' });
    expect(onlyPublic.json.map((x: { title: string }) => x.title)).toEqual(['fleet-readonly', 'fleet-2']);
    expect(onlyPublic.json[0].projects_with_readonly_access.map((p: { id: number }) => p.id)).toEqual([2]);
    const developer = await c.call('/projects/1/deploy_keys', { as: 'admin', headers: { Sudo: 'jdoe' } });
    expect(developer.status).toBe(200);
  });
});

describe('one key by id or fingerprint (lib/api/keys.rb; users.rb single-key reads)', () => {
  it('GET /keys/:id answers the key with its owner to an administrator, 403 to others, 404 Not found for none', async () => {
    const k = ed25519Key('lookup@host');
    const added = await post('/users/3/keys', { title: 'lookup', key: k.line });
    const one = await c.call(`/keys/${added.json.id}`, { as: 'admin' });
    expect(one.status).toBe(200);
    expect({ ...one.json, user: undefined }).toEqual({ ...added.json, user: undefined });
    const owner = await c.call('/users/3', { as: 'admin' });
    expect(one.json.user).toEqual(owner.json);
    expect((await c.call(`/keys/${added.json.id}`, { as: 'user' })).json).toEqual({ message: '403 Forbidden' });
    const none = await c.call('/keys/999999', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Not found' }]);
    const ofUser = await c.call(`/users/3/keys/${added.json.id}`);
    expect([ofUser.status, ofUser.json]).toEqual([200, added.json]);
    const elsewhere = await c.call(`/users/4/keys/${added.json.id}`);
    expect([elsewhere.status, elsewhere.json]).toEqual([404, { message: '404 Key Not Found' }]);
  });

  it('GET /keys?fingerprint= finds a key by its MD5 or SHA256 fingerprint (a deploy key with the deploy key fields)', async () => {
    const k = ed25519Key('finger@host');
    const added = await post('/users/5/keys', { title: 'finger', key: k.line });
    const deploy = await post('/projects/1/deploy_keys', { title: 'finger-deploy', key: ed25519Key('deploy@host').line });
    const bySha = await c.call(`/keys?fingerprint=${encodeURIComponent(deploy.json.fingerprint_sha256)}`, { as: 'admin' });
    expect([bySha.status, bySha.json.id, bySha.json.fingerprint, bySha.json.user.id]).toEqual([
      200,
      deploy.json.id,
      deploy.json.fingerprint,
      1,
    ]);
    const byMd5 = await c.call(`/keys?fingerprint=${encodeURIComponent(bySha.json.fingerprint)}`, { as: 'admin' });
    expect(byMd5.json.id).toBe(deploy.json.id);
    const user = await c.call(`/keys/${added.json.id}`, { as: 'admin' });
    expect(user.json.user.username).toBe((await c.call('/users/5', { as: 'admin' })).json.username);
    const none = await c.call('/keys?fingerprint=SHA256:nothing', { as: 'admin' });
    expect([none.status, none.json]).toEqual([404, { message: '404 Key Not Found' }]);
    const missing = await c.call('/keys', { as: 'admin' });
    expect([missing.status, missing.json]).toEqual([400, { error: 'fingerprint is missing' }]);
  });
});
