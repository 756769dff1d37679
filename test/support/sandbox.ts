import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { registerSecrets } from './harness.js';

/** Starts a sandbox on 127.0.0.1:0 and registers its tokens for the suite-wide secrets check. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const t = sandbox.tokens;
  registerSecrets(t.admin, t.adminNoSudo, t.user, t.readApi, t.job, t.oauth.access, t.oauth.refresh);
  return sandbox;
}

/** Environment pointing the CLI at a sandbox with one of its tokens. */
export function sandboxEnv(sandbox: Sandbox, token: string = sandbox.tokens.admin, type?: string): Record<string, string> {
  const env: Record<string, string> = { SVC_URL: sandbox.url, SVC_TOKEN: token };
  if (type) env.SVC_TOKEN_TYPE = type;
  return env;
}
