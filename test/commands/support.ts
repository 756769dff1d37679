import { afterAll, beforeAll } from 'vitest';
import type { RecordedRequest, Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, type RunOptions, type RunResult } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

export interface CommandSuite {
  sandbox: Sandbox;
  /** Runs the built CLI against the sandbox with the given token (admin by default). */
  run(args: string[], options?: RunOptions & { token?: string; tokenType?: string }): Promise<RunResult>;
  /** Requests the sandbox recorded since the last `run`, without the noise of other origins unless asked. */
  requests(origin?: RecordedRequest['origin']): RecordedRequest[];
}

/** One sandbox per test file, cleared of recorded requests before every run. */
export function useSandbox(options: SandboxOptions = { projects: 10 }): CommandSuite {
  const suite = {} as CommandSuite;
  beforeAll(async () => {
    suite.sandbox = await startTestSandbox(options);
  });
  afterAll(async () => {
    await suite.sandbox?.close();
    cleanupTempDirs();
  });
  suite.run = (args, options = {}) => {
    suite.sandbox.clearRequests();
    const { token, tokenType, ...rest } = options;
    const env = { COLUMNS: '100', ...sandboxEnv(suite.sandbox, token ?? suite.sandbox.tokens.admin, tokenType), ...rest.env };
    return svc(args, { ...rest, env });
  };
  suite.requests = (origin = 'api') => suite.sandbox.requests().filter((r) => r.origin === origin);
  return suite;
}

/** The single API request a command made to a route, asserted to be the only one. */
export function onlyRequest(suite: CommandSuite, method: string, pathPattern: RegExp): RecordedRequest {
  const matching = suite.requests().filter((r) => r.method === method && pathPattern.test(r.rawPath));
  if (matching.length !== 1) {
    throw new Error(
      `expected one ${method} ${pathPattern}, saw: ${suite
        .requests()
        .map((r) => `${r.method} ${r.rawPath}`)
        .join(', ')}`,
    );
  }
  return matching[0] as RecordedRequest;
}

/** Makes user `userId` a member of a project or group (`/projects/3`, `/groups/2`) at `level`, through the API; its username. */
export async function addMember(suite: CommandSuite, where: string, userId: number, level: number): Promise<string> {
  const res = await fetch(`${suite.sandbox.url}/api/v4${where}/members`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ user_id: userId, access_level: level }),
  });
  if (res.status !== 201) throw new Error(`adding user ${userId} to ${where}: ${res.status}`);
  return ((await res.json()) as { username: string }).username;
}
