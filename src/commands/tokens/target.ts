import { getToken, TOKEN_KINDS, type TokenKind, type TokenSet } from '../../api/tokens.js';
import { getCurrentUser, resolveUserId } from '../../api/users.js';
import type { OptionSpec } from '../../cli/spec.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { projectRef, requiredTextParser } from '../shared/args.js';

export interface TargetFlags {
  self?: boolean;
  user?: string;
  project?: string;
  group?: string;
  kind?: TokenKind;
}

export const TARGET_OPTIONS: OptionSpec[] = [
  { flags: '--self', help: 'tokens of the user svc is signed in as' },
  {
    flags: '--user <user>',
    help: "a user's personal tokens, or with --kind impersonation their impersonation tokens (id or username)",
    parse: requiredTextParser('--user'),
  },
  {
    flags: '--project <project>',
    help: "a project's access tokens, or with --kind deploy its deploy tokens (numeric id or namespaced path)",
    parse: projectRef,
  },
  {
    flags: '--group <group>',
    help: "a group's access tokens, or with --kind deploy its deploy tokens (numeric id or full path)",
    parse: requiredTextParser('--group'),
  },
  { flags: '--kind <kind>', help: 'which kind of token (default: personal for users, project or group for those)', choices: TOKEN_KINDS },
];

/** A set of tokens, how to name it, and the role the service asks of whoever manages it. */
export interface Target extends TokenSet {
  label: string;
  role: string;
}

const KINDS_OF = {
  user: ['personal', 'impersonation'],
  project: ['project', 'deploy'],
  group: ['group', 'deploy'],
} as const;

/** Exactly one owner, and a kind that it has; checked before any request. */
export function checkTarget(opts: TargetFlags): void {
  const given = [opts.self, opts.user !== undefined, opts.project !== undefined, opts.group !== undefined].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give one of --self, --user USER, --project PROJECT or --group GROUP (whose tokens)');
  const type = opts.project !== undefined ? 'project' : opts.group !== undefined ? 'group' : 'user';
  const allowed: readonly string[] = KINDS_OF[type];
  if (opts.kind !== undefined && !allowed.includes(opts.kind)) {
    const owner = type === 'user' ? (opts.self ? '--self' : '--user') : `--${type}`;
    throw new UsageError(`--kind ${opts.kind} does not go with ${owner} (use ${allowed.join(' or ')})`);
  }
}

export async function resolveTarget(http: HttpClient, opts: TargetFlags): Promise<Target> {
  checkTarget(opts);
  if (opts.project !== undefined || opts.group !== undefined) {
    const type = opts.project !== undefined ? 'project' : 'group';
    const id = (opts.project ?? opts.group) as string;
    const kind = opts.kind ?? type;
    const role = kind === 'group' ? 'owner' : 'maintainer';
    return { owner: { type, id }, kind, label: `${kind === 'deploy' ? 'deploy' : `${type} access`} tokens of ${type} ${id}`, role };
  }
  const kind = opts.kind ?? 'personal';
  const label = kind === 'personal' ? 'personal access tokens' : 'impersonation tokens';
  if (opts.self) {
    const me = await getCurrentUser(http);
    return { owner: { type: 'user', id: me.id }, kind, label: `${label} of ${me.username}`, role: 'administrator' };
  }
  const id = await resolveUserId(http, opts.user as string);
  return { owner: { type: 'user', id }, kind, label: `${label} of user ${opts.user}`, role: 'administrator' };
}

/**
 * Personal tokens are addressed by id alone, whoever owns them: without this check a token of
 * another user would be rotated or revoked under the name of the one given.
 */
export async function checkOwner(http: HttpClient, target: Target, id: string): Promise<void> {
  if (target.kind !== 'personal' || id === 'self' || target.owner.type !== 'user') return;
  const token = await withTokenRole(http, target, () => getToken(http, target, id));
  if (token.user_id !== target.owner.id) {
    throw new SvcError(
      `personal access token ${id} is not among the ${target.label} (it is user ${String(token.user_id)}'s); nothing was changed`,
      ExitCode.notFound,
    );
  }
}

/** The instance-wide list of personal tokens answers 404 to a `user_id` no user has. */
export function unknownUser(error: unknown, target: Target): unknown {
  if (error instanceof ApiError && error.status === 404 && target.owner.type === 'user' && target.kind === 'personal') {
    return new SvcError(`no user with the id ${target.owner.id}`, ExitCode.notFound);
  }
  return error;
}

/**
 * The service answers 403, or 401 to a working token that lacks the role (project and group
 * tokens): either way one line naming the role, exit 4. A 401 to a token that does not work stays 401.
 */
export async function withTokenRole<T>(http: HttpClient, target: Target, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 401)) throw error;
    // A token without the scope is refused whatever its user's role; the service's answer names the scope.
    if ((error.body as { error?: unknown } | undefined)?.error === 'insufficient_scope') throw error;
    if (error.status === 401 && !(await tokenWorks(http))) throw error;
    const needs = target.role === 'administrator' ? 'administrator access' : `the ${target.role} role or administrator access`;
    throw new ApiError(
      error.status,
      error.body,
      `${target.label}: refused (${error.status} from the service); this needs ${needs}`,
      ExitCode.forbidden,
    );
  }
}

async function tokenWorks(http: HttpClient): Promise<boolean> {
  try {
    await getCurrentUser(http);
    return true;
  } catch {
    return false;
  }
}
