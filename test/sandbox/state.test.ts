// `svc sandbox --state`: the writes of a run, replayed against a fresh world with the clock at each
// write's time, give back the same records with the same ids and times; the file is written on
// SIGTERM and refused for another world.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalEntry, Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { TestClock } from '../support/clock.js';
import { cleanupTempDirs, spawnSvc, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';
import { req } from './helpers.js';

afterAll(() => cleanupTempDirs());

/** The records as the API shows them, the sandbox's own address left out (each run listens on its own port). */
async function records(sb: Sandbox): Promise<unknown[]> {
  const get = async (path: string) =>
    JSON.parse((await req(sb.url, `/api/v4${path}`, { token: sb.tokens.admin })).text.replaceAll(sb.url, 'SANDBOX'));
  return [
    await get('/projects/1/issues?sort=asc'),
    await get('/projects/1/issues/1/notes?sort=asc'),
    await get('/projects/1/pipelines?sort=asc'),
    await get('/projects?search=kept&simple=true'),
    await get('/groups/kept-group'),
  ];
}

describe('a journal replayed into a fresh world', () => {
  it('gives back the records with the same ids and times, and moves on from there', async () => {
    const clock = new TestClock();
    const options: SandboxOptions = { projects: 3, clock: clock.now };
    const first = await startTestSandbox(options);
    const write = async (path: string, token: string, json: Record<string, unknown>) => {
      const r = await req(first.url, `/api/v4${path}`, { method: 'POST', token, json });
      expect(r.status).toBe(201);
      clock.advance(60_000);
    };
    await write('/projects/1/issues', first.tokens.user, { title: 'Kept across restarts' });
    await write('/projects/1/issues/1/notes', first.tokens.admin, { body: 'noted' });
    await write('/projects/1/pipeline', first.tokens.admin, { ref: 'main' });
    await write('/projects', first.tokens.user, { name: 'kept project' });
    await write('/groups', first.tokens.admin, { name: 'Kept group', path: 'kept-group' });
    // A refused write is not kept.
    expect((await req(first.url, '/api/v4/projects/1/issues', { method: 'POST', token: first.tokens.user, json: {} })).status).toBe(400);
    const before = await records(first);
    const journal: JournalEntry[] = first.journal();
    await first.close();
    expect(journal.map((e) => [e.method, e.url, e.user])).toEqual([
      ['POST', '/api/v4/projects/1/issues', 2],
      ['POST', '/api/v4/projects/1/issues/1/notes', 1],
      ['POST', '/api/v4/projects/1/pipeline', 1],
      ['POST', '/api/v4/projects', 2],
      ['POST', '/api/v4/groups', 1],
    ]);

    const second = await startTestSandbox({ ...options, journal });
    try {
      expect(second.replayRefused).toBe(0);
      expect(await records(second)).toEqual(before);
      expect(second.journal()).toEqual(journal);
      // The replayed pipeline (the first created id after 3 seeded projects' 9) ended on the clock since.
      const pipeline = (await req(second.url, '/api/v4/projects/1/pipelines/10', { token: second.tokens.admin })).json as {
        status: string;
      };
      expect(pipeline.status).toBe('success');
    } finally {
      await second.close();
    }
  });
});

describe('a scenario restarted with its state', () => {
  it('keeps the time the world was made, so its pipelines do not start again', async () => {
    const clock = new TestClock();
    const scenario = {
      projects: [{ path: 'app', namespace: 'jdoe', pipelines: [{ jobs: [{ name: 'build', stage: 'build', duration: 5 }] }] }],
    };
    const first = await startTestSandbox({ scenario, clock: clock.now });
    const createdAt = first.createdAt;
    await first.close();
    clock.advance(60_000);
    const second = await startTestSandbox({ scenario, clock: clock.now, journal: [], createdAt });
    try {
      const pipeline = (await req(second.url, '/api/v4/projects/1/pipelines/1', { token: second.tokens.admin })).json as {
        created_at: string;
        status: string;
      };
      expect([pipeline.created_at, pipeline.status]).toEqual([new Date(createdAt).toISOString(), 'success']);
    } finally {
      await second.close();
    }
  });
});

describe('svc sandbox --state FILE', () => {
  it('writes the state atomically on SIGTERM, and refuses it for another world', async () => {
    const file = join(tempDir(), 'state.json');
    const child = spawnSvc(['sandbox', '--projects', '2', '--port', '0', '--state', file, '-o', 'json']);
    const started = await new Promise<{ url: string; tokens: { admin: string } }>((resolve) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
    });
    const created = await req(started.url, '/api/v4/projects/1/issues', {
      method: 'POST',
      token: started.tokens.admin,
      json: { title: 'Survives' },
    });
    expect(created.status).toBe(201);
    child.kill('SIGTERM');
    const result = await child;
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    const state = JSON.parse(readFileSync(file, 'utf8')) as { format: string; world: string; createdAt: number; journal: JournalEntry[] };
    expect([state.format, state.world]).toEqual(['svc-sandbox-state/1', 'seed 1, 2 projects, default users, storages default,storage2']);
    expect(state.createdAt).toBeLessThanOrEqual(state.journal[0]!.at);
    expect(state.journal.map((e) => [e.method, e.url, e.user, Buffer.from(e.body!, 'base64').toString()])).toEqual([
      ['POST', '/api/v4/projects/1/issues', 1, '{"title":"Survives"}'],
    ]);

    const other = await svc(['sandbox', '--projects', '2', '--seed', '2', '--port', '0', '--state', file]);
    expect(other).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: sandbox: the state file ${file} was written for another world (seed 1, 2 projects, default users, storages default,storage2), not this one (seed 2, 2 projects, default users, storages default,storage2)\n`,
    });
  });

  it('refuses a state file whose directory does not exist or is a file, before starting (exit 2)', async () => {
    const missing = join(tempDir(), 'no-such-dir', 'st.json');
    expect(await svc(['sandbox', '--projects', '1', '--port', '0', '--state', missing])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: sandbox: cannot write the state file ${missing}: directory ${dirname(missing)} does not exist\n`,
    });
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const under = join(file, 'st.json');
    expect(await svc(['sandbox', '--projects', '1', '--port', '0', '--state', under])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: sandbox: cannot write the state file ${under}: ${file} is not a directory\n`,
    });
  });
});
