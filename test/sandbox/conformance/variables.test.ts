// CI/CD variables: service-endpoints.md §5.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

// 300 projects give 18 users: user 6 is a developer and user 18 an owner of `acme` (group 1).
const c = useSandbox({ projects: 300 });
const as = (userId: number) => ({ token: c.sb.tokens.admin, headers: { Sudo: String(userId) } });
const post = (path: string, json: unknown, who: object = { as: 'admin' }) => c.call(path, { ...who, method: 'POST', json });

describe('§5 project variables', () => {
  it('creates 201 with the Variable entity and reads it back', async () => {
    const r = await post('/projects/1/variables', { key: 'TOKEN', value: 's3cr3t-value', masked: true }, { as: 'user' });
    const entity = {
      variable_type: 'env_var',
      key: 'TOKEN',
      value: 's3cr3t-value',
      hidden: false,
      protected: false,
      masked: true,
      raw: false,
      environment_scope: '*',
      description: null,
    };
    expect(r.status).toBe(201);
    expect(r.json).toEqual(entity);
    const one = await c.call('/projects/1/variables/TOKEN', { as: 'user' });
    expect(one.json).toEqual(entity);
    const list = await c.call('/projects/1/variables', { as: 'user' });
    expect(list.json).toEqual([entity]);
    expect(list.headers['x-total']).toBe('1');
  });

  it('answers a key taken in the same scope 400 {"message":{"key":["(KEY) has already been taken"]}}', async () => {
    await post('/projects/3/variables', { key: 'DUP', value: 'a' });
    const r = await post('/projects/3/variables', { key: 'DUP', value: 'b' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { key: ['(DUP) has already been taken'] } });
  });

  it('keeps the same key in two environment scopes as two variables; 409 without filter, filter picks one', async () => {
    expect((await post('/projects/4/variables', { key: 'URL', value: 'prod', environment_scope: 'production' })).status).toBe(201);
    expect((await post('/projects/4/variables', { key: 'URL', value: 'stage', environment_scope: 'staging' })).status).toBe(201);
    const ambiguous = await c.call('/projects/4/variables/URL', { as: 'admin' });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.json).toEqual({
      message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    });
    const picked = await c.call('/projects/4/variables/URL?filter%5Benvironment_scope%5D=staging', { as: 'admin' });
    expect(picked.json.value).toBe('stage');
    const updated = await c.call('/projects/4/variables/URL', {
      as: 'admin',
      method: 'PUT',
      json: { value: 'prod-2', filter: { environment_scope: 'production' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.value).toBe('prod-2');
    const deleted = await c.call('/projects/4/variables/URL?filter%5Benvironment_scope%5D=staging', { as: 'admin', method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await c.call('/projects/4/variables/URL', { as: 'admin' })).json.value).toBe('prod-2');
  });

  it('refuses a key outside letters, digits and _', async () => {
    const r = await post('/projects/5/variables', { key: 'MY-KEY', value: 'x' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
  });

  it('refuses a masked value under 8 characters or outside the alphabet 400 {"message":{"value":["is invalid"]}}', async () => {
    for (const value of ['short', 'has spaces in it', 'dollar$sign1']) {
      const r = await post('/projects/5/variables', { key: 'M', value, masked: true });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: { value: ['is invalid'] } });
    }
    const raw = await post('/projects/5/variables', { key: 'M', value: 'dollar$sign1', masked: true, raw: true });
    expect(raw.status).toBe(201);
  });

  it('names the missing parameters', async () => {
    const r = await post('/projects/5/variables', {});
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'key is missing, value is missing' });
  });

  it('hides a masked_and_hidden value in every later read', async () => {
    const r = await post('/projects/6/variables', { key: 'HID', value: 'hidden-value-1', masked_and_hidden: true });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ value: null, hidden: true, masked: true });
    expect((await c.call('/projects/6/variables/HID', { as: 'admin' })).json).toMatchObject({ value: null, hidden: true, masked: true });
  });

  it('answers an unknown key 404 {"message":"404 Variable Not Found"}', async () => {
    const r = await c.call('/projects/1/variables/NOPE', { as: 'admin' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Variable Not Found' });
  });

  it('refuses a developer 403, reads included', async () => {
    const r = await c.call('/projects/1/variables', as(6));
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });
});

describe('§5 group variables', () => {
  it('lets an owner create and read; the not-found name is GroupVariable', async () => {
    const r = await post('/groups/1/variables', { key: 'G', value: 'group-value', variable_type: 'file' }, as(18));
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ key: 'G', variable_type: 'file', environment_scope: '*' });
    const missing = await c.call('/groups/1/variables/NOPE', as(18));
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: '404 GroupVariable Not Found' });
  });

  it('refuses a maintainer of the group 403', async () => {
    const r = await c.call('/groups/1/variables', { as: 'user' });
    expect(r.status).toBe(403);
  });

  it('refuses a variable_type outside env_var|file', async () => {
    const r = await post('/groups/1/variables', { key: 'X', value: 'v', variable_type: 'secret' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'variable_type does not have a valid value' });
  });
});

describe('§5 instance variables', () => {
  it('is for administrators only and has no environment_scope', async () => {
    const denied = await c.call('/admin/ci/variables', { as: 'user' });
    expect(denied.status).toBe(403);
    const r = await post('/admin/ci/variables', { key: 'I', value: 'inst', environment_scope: 'production' });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      variable_type: 'env_var',
      key: 'I',
      value: 'inst',
      hidden: false,
      protected: false,
      masked: false,
      raw: false,
      description: null,
    });
    const missing = await c.call('/admin/ci/variables/NOPE', { as: 'admin' });
    expect(missing.json).toEqual({ message: '404 InstanceVariable Not Found' });
  });
});
