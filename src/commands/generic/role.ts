import type { CommandSpec } from '../../cli/spec.js';
import { ApiError } from '../../http/api-error.js';

/** The role of endpoints only administrators may use. */
export const ADMINISTRATOR = 'administrator';

/** A 403 names the role the service asks for, so the reader knows whom to ask. */
export async function withRole<T>(role: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    const body = error.body as { message?: unknown; error?: unknown } | null;
    if (role === ADMINISTRATOR) {
      // A 403 that gives its own reason (`The API initiating user cannot be blocked by the API`) is left as the service said it.
      if (body?.message !== '403 Forbidden') throw error;
      throw new ApiError(403, error.body, `${error.message} (this needs administrator access)`, error.exitCode);
    }
    // A token without the scope is refused whatever the role; the error already says which scope. A job
    // token is refused for what a job token may reach (the target's allowlist, the endpoints that take one),
    // which the HTTP layer's hint names; the role of the job's user is not what to fix. Nor is a role what a
    // refused Sudo lacks: the message already says what the token needs.
    if (body?.error === 'insufficient_scope') throw error;
    if (error.credential === 'job' || error.sudoRefused) throw error;
    throw new ApiError(403, error.body, `${error.message} (this needs the ${role} role or administrator access)`, error.exitCode);
  }
}

/** The role a verb's request needs: the declared one, except that the instance's system hooks (`--system`) are the administrators'. */
export function roleFor(declared: string | undefined, opts: unknown): string | undefined {
  return (opts as { system?: unknown } | null)?.system === true ? ADMINISTRATOR : declared;
}

/** The verb, naming the role the declaration gives it when the service refuses (403). */
export function namingRole<O>(role: string | undefined, spec: CommandSpec<O>): CommandSpec<O> {
  if (!role) return spec;
  return { ...spec, run: (ctx, args, opts) => withRole(roleFor(role, opts) as string, () => spec.run(ctx, args, opts)) };
}
