// service-behaviour.md §1.4: the repository is read-only while it moves; writes are refused
// with the message a push gets.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 30, moveMs: 60_000 });
const REFUSED = { message: 'The repository is temporarily read-only. Please try again later.' };

describe('§1.4 writes to a repository being moved', () => {
  it('refuses a file commit with 400 and the read-only message, and accepts it again once writable', async () => {
    const move = await c.call('/projects/5/repository_storage_moves', {
      as: 'admin',
      method: 'POST',
      json: { destination_storage_name: 'storage2' },
    });
    expect(move.status).toBe(201);
    const write = { branch: 'main', commit_message: 'm', content: 'x' };
    const r = await c.call('/projects/5/repository/files/new.txt', { as: 'admin', method: 'POST', json: write });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(REFUSED);
    c.sb.state.setReadOnly('project', 5, false);
    const ok = await c.call('/projects/5/repository/files/new.txt', { as: 'admin', method: 'POST', json: write });
    expect(ok.status).toBe(201);
  });

  it('refuses a tag creation', async () => {
    c.sb.state.setReadOnly('project', 6, true);
    const r = await c.call('/projects/6/repository/tags', { as: 'admin', method: 'POST', json: { tag_name: 'v5', ref: 'main' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(REFUSED);
  });

  it('refuses a release that would create its tag, but not one on an existing tag', async () => {
    c.sb.state.setReadOnly('project', 7, true);
    const r = await c.call('/projects/7/releases', { as: 'admin', method: 'POST', json: { tag_name: 'v5', ref: 'main' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(REFUSED);
    const onTag = await c.call('/projects/7/releases', { as: 'admin', method: 'POST', json: { tag_name: 'v2.0.0-rc.1' } });
    expect(onTag.status).toBe(201);
  });

  it('still serves reads', async () => {
    c.sb.state.setReadOnly('project', 8, true);
    const r = await c.call('/projects/8/repository/files/README.md/raw?ref=main', { as: 'admin' });
    expect(r.status).toBe(200);
  });
});
