// The trigger API and pipeline trigger tokens: service-endpoints.md §3 (Trigger).
import { beforeAll, describe, expect, it } from 'vitest';
import { req } from '../helpers.js';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 6 });
let token: string;

/** The trigger route needs no credentials: only the token in the body. */
const trigger = (path: string, opts: { json?: unknown; form?: string; headers?: Record<string, string> }) =>
  req(c.sb.url, `/api/v4${path}`, { method: 'POST', ...opts });

beforeAll(async () => {
  const r = await c.call('/projects/2/triggers', { as: 'user', method: 'POST', json: { description: 'deploy' } });
  expect(r.status).toBe(201);
  token = r.json.token;
});

describe('pipeline trigger tokens', () => {
  it('POST /triggers answers 201 with the token, its owner and last_used null; GET lists it', async () => {
    const created = await c.call('/projects/2/triggers', { as: 'user', method: 'POST', json: { description: 'nightly' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['created_at', 'description', 'id', 'last_used', 'owner', 'token', 'updated_at']);
    expect(created.json.token).toMatch(/^glptt-[0-9a-f]{40}$/);
    expect(created.json).toMatchObject({ description: 'nightly', last_used: null, owner: { username: 'jdoe' } });
    const list = await c.call('/projects/2/triggers', { as: 'user' });
    expect(list.json.map((t: { description: string }) => t.description)).toEqual(['deploy', 'nightly']);
    expect(list.json[1].token).toBe(created.json.token);
  });

  it('a token is shown whole only to its owner', async () => {
    const list = await c.call('/projects/2/triggers', { as: 'admin' });
    expect(list.json[0].token).toBe(token.slice(0, 4));
  });

  it('description is required', async () => {
    const r = await c.call('/projects/2/triggers', { as: 'user', method: 'POST', json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'description is missing' });
  });
});

describe('§3 POST /projects/:id/trigger/pipeline', () => {
  it('a trigger token starts a pipeline without credentials: 201, source trigger, variables as a hash', async () => {
    const r = await trigger('/projects/2/trigger/pipeline', { json: { token, ref: 'main', variables: { DEPLOY: 'yes', EMPTY: '' } } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ project_id: 2, ref: 'main', source: 'trigger', status: 'created' });
    const vars = await c.call(`/projects/2/pipelines/${r.json.id}/variables`, { as: 'user' });
    expect(vars.json).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY', value: 'yes' },
      { variable_type: 'env_var', key: 'EMPTY', value: '' },
    ]);
    const list = await c.call('/projects/2/triggers', { as: 'user' });
    expect(list.json[0].last_used).not.toBe(null);
  });

  it('takes form parameters variables[KEY]=value, and the ref in the path', async () => {
    const form = await trigger('/projects/2/trigger/pipeline', { form: `token=${token}&ref=develop&variables[A]=1` });
    expect(form.status).toBe(201);
    expect(form.json.ref).toBe('develop');
    const vars = await c.call(`/projects/2/pipelines/${form.json.id}/variables`, { as: 'user' });
    expect(vars.json).toEqual([{ variable_type: 'env_var', key: 'A', value: '1' }]);
    const inPath = await trigger('/projects/2/ref/feature%2Flogin/trigger/pipeline', { json: { token } });
    expect(inPath.status).toBe(201);
    expect(inPath.json.ref).toBe('feature/login');
  });

  it("a CI job token starts a pipeline with source pipeline, where the job's user may create pipelines", async () => {
    const r = await trigger('/projects/2/trigger/pipeline', { json: { token: c.sb.tokens.job, ref: 'main' } });
    expect(r.status).toBe(201);
    expect(r.json.source).toBe('pipeline');
    // jdoe, whom the job runs as, sees project 4 but may not create pipelines there.
    expect((await c.call('/projects/4/pipeline', { as: 'user', method: 'POST', json: { ref: 'main' } })).status).toBe(403);
    const refused = await trigger('/projects/4/trigger/pipeline', { json: { token: c.sb.tokens.job, ref: 'main' } });
    expect(refused.status).toBe(404);
    expect(refused.json).toEqual({ message: '404 Not Found' });
  });

  it('token and ref are required', async () => {
    const r = await trigger('/projects/2/trigger/pipeline', { json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'token is missing, ref is missing' });
    const blank = await trigger('/projects/2/trigger/pipeline', { json: { token, ref: '' } });
    expect(blank.status).toBe(400);
    expect(blank.json).toEqual({ error: 'ref is empty' });
  });

  it('variables must be a map of strings', async () => {
    const numbers = await trigger('/projects/2/trigger/pipeline', { json: { token, ref: 'main', variables: { A: 1 } } });
    expect(numbers.status).toBe(400);
    expect(numbers.json).toEqual({ message: 'variables needs to be a map of key-valued strings' });
    const list = await trigger('/projects/2/trigger/pipeline', { json: { token, ref: 'main', variables: [{ key: 'A', value: '1' }] } });
    expect(list.status).toBe(400);
    expect(list.json).toEqual({ error: 'variables is invalid' });
  });

  it('an unknown project, an unknown token or a token of another project: 404 Not Found', async () => {
    for (const [path, body] of [
      ['/projects/9999/trigger/pipeline', { token, ref: 'main' }],
      ['/projects/2/trigger/pipeline', { token: 'glptt-0000', ref: 'main' }],
      ['/projects/1/trigger/pipeline', { token, ref: 'main' }],
    ] as const) {
      const r = await trigger(path, { json: body });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: '404 Not Found' });
    }
  });

  it('a request carrying the pipeline webhook event header is refused: 403', async () => {
    const r = await trigger('/projects/2/trigger/pipeline', {
      json: { token, ref: 'main' },
      headers: { 'X-Gitlab-Event': 'Pipeline Hook' },
    });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ message: '403 Forbidden' });
  });

  it('an unknown ref: 400 Reference not found', async () => {
    const r = await trigger('/projects/2/trigger/pipeline', { json: { token, ref: 'nope' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { base: ['Reference not found'] } });
  });
});
