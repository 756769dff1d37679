import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { req, waitFor } from './helpers.js';

let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ projects: 40, moveMs: 20, moveConcurrency: 4 });
});
afterAll(async () => {
  await sb.close();
});

const api = (p: string) => `/api/v4${p}`;
const admin = () => ({ token: sb.tokens.admin });

async function moveState(s: Sandbox, kind: string, id: number): Promise<string> {
  const r = await req(s.url, api(`/${kind}_repository_storage_moves/${id}`), { token: s.tokens.admin });
  return r.json.state;
}

describe('single project move', () => {
  it('goes scheduled → started → replicated → finished; read-only until replicated; storage changes at replicated', async () => {
    const r = await req(sb.url, api('/projects/5/repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { destination_storage_name: 'storage2' },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'storage2',
      error_message: null,
    });
    expect(r.json.project).toMatchObject({ id: 5, path_with_namespace: sb.state.project(5)!.fullPath });
    expect(Object.keys(r.json.project)).toEqual([
      'id',
      'description',
      'name',
      'name_with_namespace',
      'path',
      'path_with_namespace',
      'created_at',
    ]);
    expect(r.json.created_at).toMatch(/\.\d{3}Z$/);
    expect(sb.state.project(5)!.readOnly).toBe(true);
    // The sandbox runs in this process: reading the move and the project in one tick sees them consistently.
    await waitFor(
      () => {
        const { state } = sb.state.moves('project')[r.json.id - 1]!;
        const project = sb.state.project(5)!;
        if (state === 'scheduled' || state === 'started') expect(project).toMatchObject({ storage: 'default', readOnly: true });
        else expect(project).toMatchObject({ storage: 'storage2', readOnly: false });
        return state === 'finished';
      },
      5000,
      1,
    );
    expect(await moveState(sb, 'project', r.json.id)).toBe('finished');
    const rec = sb.state.moves('project').find((m) => m.id === r.json.id)!;
    expect(rec.history).toEqual(['initial', 'scheduled', 'started', 'replicated', 'finished']);
    expect(sb.state.project(5)!.readOnly).toBe(false);
    const p = await req(sb.url, api('/projects/5'), admin());
    expect(p.json.repository_storage).toBe('storage2');
  });

  it('shows moves waiting for a worker as scheduled (never initial), read-only, with a bounded number started', async () => {
    const s = await startSandbox({ projects: 10, moveMs: 100, moveConcurrency: 1 });
    try {
      const ids = [4, 5, 6];
      const created = [];
      for (const id of ids) {
        const r = await req(s.url, api(`/projects/${id}/repository_storage_moves`), {
          method: 'POST',
          token: s.tokens.admin,
          json: { destination_storage_name: 'storage2' },
        });
        expect(r.status).toBe(201);
        expect(r.json.state).toBe('scheduled');
        expect(s.state.project(id)!.readOnly).toBe(true);
        created.push(r.json.id as number);
      }
      const seen = new Set<string>();
      await waitFor(
        async () => {
          const list = await req(s.url, api('/project_repository_storage_moves'), { token: s.tokens.admin });
          const states = (list.json as Array<{ state: string }>).map((m) => m.state);
          for (const st of states) seen.add(st);
          expect(states.filter((st) => st === 'started' || st === 'replicated').length).toBeLessThanOrEqual(1);
          return states.every((st) => st === 'finished');
        },
        10_000,
        5,
      );
      expect(seen.has('initial')).toBe(false);
      for (const id of created)
        expect(s.state.moves('project')[id - 1]!.history).toEqual(['initial', 'scheduled', 'started', 'replicated', 'finished']);
      const st = s.stats().moves;
      expect(st.maxRunning).toBe(1);
      expect(st.maxUnfinished).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('refuses a second move while the first is in progress with 400 is read-only', async () => {
    const first = await req(sb.url, api('/projects/6/repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { destination_storage_name: 'storage2' },
    });
    expect(first.status).toBe(201);
    const second = await req(sb.url, api('/projects/6/repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { destination_storage_name: 'storage2' },
    });
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ message: { project: ['is read-only'] } });
  });

  it('rejects an unknown destination with the validation body', async () => {
    const r = await req(sb.url, api('/projects/7/repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { destination_storage_name: 'nope' },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { destination_storage_name: ['is not included in the list'] } });
  });

  it('answers unknown and malformed move ids', async () => {
    const unknown = await req(sb.url, api('/project_repository_storage_moves/999999'), admin());
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: '404 Not found' });
    const bad = await req(sb.url, api('/project_repository_storage_moves/abc'), admin());
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'repository_storage_move_id is invalid' });
  });

  it('answers a move id of another project with 404 Not found', async () => {
    const r = await req(sb.url, api('/projects/8/repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { destination_storage_name: 'storage2' },
    });
    const other = await req(sb.url, api(`/projects/9/repository_storage_moves/${r.json.id}`), admin());
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: '404 Not found' });
    const own = await req(sb.url, api(`/projects/8/repository_storage_moves/${r.json.id}`), admin());
    expect(own.status).toBe(200);
  });

  it('is admin only', async () => {
    const user = await req(sb.url, api('/project_repository_storage_moves'), { token: sb.tokens.user });
    expect(user.status).toBe(403);
    expect(user.json).toEqual({ message: '403 Forbidden' });
    const anon = await req(sb.url, api('/project_repository_storage_moves'));
    expect(anon.status).toBe(401);
  });

  it('lists moves newest first with offset pagination headers', async () => {
    const r = await req(sb.url, api('/project_repository_storage_moves?per_page=2'), admin());
    expect(r.status).toBe(200);
    expect(r.headers['x-per-page']).toBe('2');
    expect(r.json[0].id).toBeGreaterThan(r.json[1].id);
    expect(r.json[0].created_at >= r.json[1].created_at).toBe(true);
  });
});

describe('bulk moves', () => {
  it('validates the source and destination storages', async () => {
    const missing = await req(sb.url, api('/project_repository_storage_moves'), { method: 'POST', ...admin(), json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'source_storage_name is missing' });
    const src = await req(sb.url, api('/project_repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { source_storage_name: 'x' },
    });
    expect(src.json).toEqual({ error: 'source_storage_name does not have a valid value' });
    const dst = await req(sb.url, api('/project_repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { source_storage_name: 'default', destination_storage_name: 'y' },
    });
    expect(dst.status).toBe(400);
    expect(dst.json).toEqual({ error: 'destination_storage_name does not have a valid value' });
  });

  it('answers 202, creates moves gradually, bounds concurrency, skips read-only, and empties the source', async () => {
    const s = await startSandbox({ projects: 300, moveMs: 5, moveConcurrency: 6 });
    try {
      s.state.setReadOnly('project', 10, true);
      const r = await req(s.url, api('/project_repository_storage_moves'), {
        method: 'POST',
        token: s.tokens.admin,
        form: 'source_storage_name=default&destination_storage_name=storage2',
      });
      expect(r.status).toBe(202);
      expect(r.json).toEqual({ message: '202 Accepted' });
      await waitFor(() => s.state.bulkInProgress() === 0 && s.stats().moves.byState.finished === 299, 240_000);
      const st = s.stats();
      expect(st.moves.created).toBe(299);
      // created in batches over time, not all at once
      const created = s.state.moves('project').map((m) => m.createdAt);
      expect(Math.max(...created) - Math.min(...created)).toBeGreaterThanOrEqual(10);
      expect(st.moves.maxRunning).toBeLessThanOrEqual(6);
      expect(st.moves.maxRunning).toBeGreaterThan(1);
      // the bulk job schedules faster than six workers finish: the rest queue as `scheduled`
      expect(st.moves.maxUnfinished).toBeGreaterThan(6);
      expect(s.state.skippedMoves()).toHaveLength(1);
      expect(s.state.skippedMoves()[0]).toMatch(/^Project .+ \(10\) was skipped: /);
      const left = await req(s.url, api('/projects?repository_storage=default'), { token: s.tokens.admin });
      expect(left.headers['x-total']).toBe('1');
      expect(left.json[0].id).toBe(10);
    } finally {
      await s.close();
    }
  });

  it('skips a seeded share of containers silently with bulkSkipRate', async () => {
    const s = await startSandbox({ projects: 100, moveMs: 1, moveConcurrency: 50, bulkSkipRate: 0.2 });
    try {
      await req(s.url, api('/project_repository_storage_moves'), {
        method: 'POST',
        token: s.tokens.admin,
        json: { source_storage_name: 'default', destination_storage_name: 'storage2' },
      });
      await waitFor(() => s.state.bulkInProgress() === 0, 240_000);
      const skipped = s.state.skippedMoves().length;
      expect(skipped).toBeGreaterThan(5);
      expect(skipped).toBeLessThan(40);
      expect(s.stats().moves.created).toBe(100 - skipped);
    } finally {
      await s.close();
    }
  });

  it('moves snippets and groups in bulk too', async () => {
    const sn = await req(sb.url, api('/snippet_repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { source_storage_name: 'default', destination_storage_name: 'storage2' },
    });
    expect(sn.status).toBe(202);
    const gr = await req(sb.url, api('/group_repository_storage_moves'), {
      method: 'POST',
      ...admin(),
      json: { source_storage_name: 'default', destination_storage_name: 'storage2' },
    });
    expect(gr.status).toBe(202);
    await waitFor(
      () =>
        sb.state.bulkInProgress() === 0 &&
        sb.state.moves('group').every((m) => m.state === 'finished') &&
        sb.state.moves('snippet').every((m) => m.state === 'finished'),
      10_000,
    );
    const list = await req(sb.url, api('/group_repository_storage_moves?per_page=1'), admin());
    expect(list.json[0]).toHaveProperty('group');
    expect(Object.keys(list.json[0].group)).toEqual(['id', 'web_url', 'name']);
    const slist = await req(sb.url, api('/snippet_repository_storage_moves?per_page=1'), admin());
    expect(slist.json[0].snippet).toHaveProperty('raw_url');
    const g = await req(sb.url, api('/groups/1'), admin());
    expect(g.json.repository_storage).toBe('storage2');
  });

  it('has no group move routes on the free tier', async () => {
    const s = await startSandbox({ projects: 2, tier: 'free' });
    try {
      const r = await req(s.url, api('/group_repository_storage_moves'), { token: s.tokens.admin });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: '404 Not Found' });
      const p = await req(s.url, api('/project_repository_storage_moves'), { token: s.tokens.admin });
      expect(p.status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('failures', () => {
  it('fails a seeded share of moves, leaving them writable on the source; most succeed when rescheduled', async () => {
    const s = await startSandbox({ projects: 200, moveMs: 1, moveConcurrency: 100, moveFailureRate: 0.3 });
    try {
      await req(s.url, api('/project_repository_storage_moves'), {
        method: 'POST',
        token: s.tokens.admin,
        json: { source_storage_name: 'default', destination_storage_name: 'storage2' },
      });
      const terminal = new Set(['finished', 'failed', 'cleanup failed']);
      await waitFor(() => s.state.bulkInProgress() === 0 && s.state.moves('project').every((m) => terminal.has(m.state)), 240_000);
      const failed = s.state.moves('project').filter((m) => m.state === 'failed');
      expect(failed[0]!.history).toEqual(['initial', 'scheduled', 'started', 'failed']);
      expect(failed.length).toBeGreaterThan(20);
      expect(failed.length).toBeLessThan(100);
      const one = await req(s.url, api(`/project_repository_storage_moves/${failed[0]!.id}`), { token: s.tokens.admin });
      expect(one.json.state).toBe('failed');
      expect(typeof one.json.error_message).toBe('string');
      for (const m of failed) {
        const p = s.state.project(m.containerId)!;
        expect(p.storage).toBe('default');
        expect(p.readOnly).toBe(false);
      }
      // reschedule every failed one
      for (const m of failed) {
        const r = await req(s.url, api(`/projects/${m.containerId}/repository_storage_moves`), {
          method: 'POST',
          token: s.tokens.admin,
          json: { destination_storage_name: 'storage2' },
        });
        expect(r.status).toBe(201);
      }
      await waitFor(() => s.state.moves('project').every((m) => terminal.has(m.state)), 240_000);
      const again = s.state.moves('project').slice(-failed.length);
      const refailed = again.filter((m) => m.state === 'failed').length;
      expect(refailed).toBeLessThan(failed.length / 2);
    } finally {
      await s.close();
    }
  });
});
