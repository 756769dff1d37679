import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { svc } from '../support/harness.js';
import { env, FAST, sandboxPerTest, SCHEDULE_PROJECTS } from './helpers.js';

// An empty source: schedule says so and sends no move request; verify prints no lone header.

const sandbox = sandboxPerTest();

async function emptySource(): Promise<Sandbox> {
  const sb = await sandbox({ projects: 12, moveMs: 5 });
  for (const id of sb.state.projectIdsOnStorage('default')) sb.state.setProjectStorage(id, 'storage2');
  return sb;
}

const schedule = (...args: string[]) => [...SCHEDULE_PROJECTS, ...args];
const movePosts = (sb: Sandbox) => sb.requests().filter((r) => r.method === 'POST' && r.rawPath.endsWith('repository_storage_moves'));

describe('nothing on the source', () => {
  it('schedule says nothing to move and schedules nothing, with or without watching', async () => {
    const sb = await emptySource();
    const plain = await svc(schedule(), { env: env(sb) });
    expect([plain.exitCode, plain.stdout, plain.stderr]).toEqual([0, '', 'nothing to move: no repositories on default\n']);
    const rolling = await svc(schedule('--max-in-flight', '5', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(rolling.exitCode, rolling.stderr).toBe(0);
    expect(rolling.stderr.split('\n')[0]).toBe('nothing to move: no repositories on default');
    expect(JSON.parse(rolling.stdout)).toMatchObject({ complete: true, kinds: [{ kind: 'projects', total: 0, finished: 0 }] });
    const waiting = await svc(schedule('--wait', ...FAST, '-o', 'json'), { env: env(sb) });
    expect(waiting.exitCode, waiting.stderr).toBe(0);
    expect(waiting.stderr.split('\n')[0]).toBe('nothing to move: no repositories on default');
    expect(JSON.parse(waiting.stdout)).toMatchObject({ complete: true, kinds: [{ kind: 'projects', total: 0, finished: 0 }] });
    expect(movePosts(sb)).toEqual([]);
  });

  it('names the empty kinds and sends the bulk request only for the others', async () => {
    const sb = await emptySource();
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2'], { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('nothing'))).toEqual(['nothing to move for projects: none on default']);
    expect(movePosts(sb).map((p) => p.rawPath)).toEqual([
      '/api/v4/snippet_repository_storage_moves',
      '/api/v4/group_repository_storage_moves',
    ]);
  });

  it('verify prints nothing on stdout but JSON says []', async () => {
    const sb = await emptySource();
    const tsv = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'projects'], { env: env(sb) });
    expect([tsv.exitCode, tsv.stdout, tsv.stderr]).toEqual([0, '', 'nothing remains on default\n']);
    const json = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'projects', '-o', 'json'], { env: env(sb) });
    expect([json.exitCode, json.stdout, json.stderr]).toEqual([0, '[]\n', 'nothing remains on default\n']);
  });
});
