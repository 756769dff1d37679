import { afterAll, beforeAll } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/index.js';
import { type ReqOpts, req, type Res } from '../helpers.js';

export interface Conformance {
  sb: Sandbox;
  /** Request `/api/v4<path>`; `as` names one of the sandbox's tokens. */
  call(path: string, opts?: ReqOpts & { as?: 'admin' | 'user' | 'readApi' }): Promise<Res>;
}

/** One sandbox per test file, started before its tests and closed after. */
export function useSandbox(options: SandboxOptions = { projects: 30 }): Conformance {
  const c = { sb: null as unknown as Sandbox } as Conformance;
  beforeAll(async () => {
    c.sb = await startSandbox(options);
  });
  afterAll(async () => {
    await c.sb.close();
  });
  c.call = (path, opts = {}) => {
    const { as, ...rest } = opts;
    return req(c.sb.url, `/api/v4${path}`, { ...rest, token: as ? c.sb.tokens[as] : rest.token });
  };
  return c;
}

export const ids = (r: Res): number[] => (r.json as Array<{ id: number }>).map((x) => x.id);
