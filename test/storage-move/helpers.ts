import { afterAll, afterEach } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { MoveKind } from '../../src/sandbox/moves.js';
import { cleanupTempDirs } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

/** A test file's sandbox starter: each sandbox is closed after its test, temp dirs after the file. */
export function sandboxPerTest(): (options: Parameters<typeof startTestSandbox>[0]) => Promise<Sandbox> {
  const open: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => cleanupTempDirs());
  return async (options) => {
    const sb = await startTestSandbox(options);
    open.push(sb);
    return sb;
  };
}

/** Fast polls and progress lines for tests; the CLI's defaults are 5 s and 30 s. */
export const FAST = ['--interval', '0.05'];

/** `svc storage-move schedule` of every project from default to storage2; the test adds the rest. */
export const SCHEDULE_PROJECTS = ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects'];

export function env(sandbox: Sandbox, token?: string): Record<string, string> {
  return { ...sandboxEnv(sandbox, token), SVC_PROGRESS_INTERVAL_MS: '100' };
}

/** Ids of a kind's containers that are on a storage, read from the sandbox's own records. */
export function idsOn(sandbox: Sandbox, kind: MoveKind, storage: string): number[] {
  if (kind === 'project') return sandbox.state.projectIdsOnStorage(storage);
  const ids: number[] = [];
  for (let id = 1; ; id++) {
    const record = kind === 'snippet' ? sandbox.state.snippet(id) : sandbox.state.group(id);
    if (!record) return ids;
    if (record.storage === storage) ids.push(id);
  }
}

/** Move-list requests (`GET /<kind>_repository_storage_moves`) the sandbox recorded. */
export function moveListRequests(sandbox: Sandbox, kind: MoveKind): Array<{ page: number; perPage: number }> {
  return sandbox
    .requests()
    .filter((r) => r.method === 'GET' && r.rawPath === `/api/v4/${kind}_repository_storage_moves`)
    .map((r) => {
      const q = new URLSearchParams(r.rawQuery);
      return { page: Number(q.get('page') ?? 1), perPage: Number(q.get('per_page') ?? 20) };
    });
}

export async function waitUntil(check: () => boolean, timeoutMs = 240_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
