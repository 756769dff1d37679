import { createToken, listTokens, revokeToken, rotateToken, type AccessToken, type TokenKind } from '../../api/tokens.js';
import { listOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { SvcError, UsageError } from '../../errors.js';
import type { QueryParams } from '../../http/encode.js';
import { accessLevel, isoDate } from '../shared/access-level.js';
import { idDigits } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { AUDIT } from './audit.js';
import { replaceRevokedToken } from './in-use.js';
import {
  checkOwner,
  checkTarget,
  resolveTarget,
  unknownUser,
  TARGET_OPTIONS,
  type Target,
  type TargetFlags,
  withTokenRole,
} from './target.js';

const COLUMNS: Record<TokenKind, string[]> = {
  personal: ['id', 'name', 'scopes', 'active', 'expires_at', 'last_used_at'],
  impersonation: ['id', 'name', 'scopes', 'active', 'expires_at', 'last_used_at'],
  project: ['id', 'name', 'scopes', 'access_level', 'active', 'expires_at', 'last_used_at'],
  group: ['id', 'name', 'scopes', 'access_level', 'active', 'expires_at', 'last_used_at'],
  deploy: ['id', 'name', 'username', 'scopes', 'revoked', 'expired', 'expires_at'],
};

const TOKEN_ID = {
  name: 'id',
  help: "the token's id (with --self and no id: the token svc is using)",
  parse: (value: string) => idDigits('token id', value),
  optional: true,
};

/** The id as typed (its digits sent as they are, never rounded), or the token in use for `--self` alone (personal tokens only). */
function tokenId(target: Target, opts: TargetFlags, id: unknown, verb: string): string {
  if (id !== undefined) return String(id);
  if (opts.self && target.kind === 'personal') return 'self';
  throw new UsageError(`give the id of the token to ${verb} (or --self alone for the token svc is using)`);
}

/** The secret goes to stdout once, even with -q (it cannot be shown again); stderr only says where it is. */
async function showSecret(ctx: Context, record: AccessToken, done: string): Promise<void> {
  if (typeof record.token !== 'string' || record.token === '')
    throw new SvcError(`${done}, but the service's answer carried no token value`);
  ctx.info(`${done}; the token is on stdout, shown this once`);
  const level = record.access_level === undefined ? [] : ['access_level'];
  // A deploy token is used with its username (git clone, docker login).
  const username = record.username === undefined ? [] : ['username'];
  await ctx.printRecord(record, ['id', 'name', ...username, 'scopes', ...level, 'expires_at', 'token']);
}

function kindName(kind: TokenKind): string {
  return kind === 'personal' || kind === 'project' || kind === 'group' ? `${kind} access token` : `${kind} token`;
}

const LIST = defineCommand<TargetFlags & ListFlags & { state?: 'active' | 'inactive' }>({
  name: 'list',
  description: "List a user's, a project's or a group's tokens, with their scopes, expiry and last use",
  options: [
    ...TARGET_OPTIONS,
    {
      flags: '--state <state>',
      help: 'only active tokens (neither revoked nor expired), or only inactive ones',
      choices: ['active', 'inactive'],
    },
    ...LIST_OPTIONS,
  ],
  notes: "An administrator may list any user's tokens; a project's tokens need its maintainer role, a group's its owner role.",
  examples: [
    'svc tokens list --self',
    'svc tokens list --user jdoe --state active -o json',
    'svc tokens list --project acme/api',
    'svc tokens list --group acme --kind deploy',
  ],
  async run(ctx, _args, opts) {
    checkTarget(opts);
    const http = await ctx.http({ requireToken: true });
    const target = await resolveTarget(http, opts);
    const pages = listTokens(http, target, opts.state, { per_page: perPageFor(opts) });
    await withTokenRole(http, target, () => outputList(ctx, pages, opts, COLUMNS[target.kind], 'tokens')).catch((error: unknown) => {
      throw unknownUser(error, target);
    });
  },
});

interface CreateFlags extends TargetFlags {
  name: string;
  scopes: string[];
  expires: string;
  access?: number;
  description?: string;
}

const CREATE = defineCommand<CreateFlags>({
  name: 'create',
  description: 'Create a token and print its value once, on stdout',
  options: [
    ...TARGET_OPTIONS,
    { flags: '--name <name>', help: 'what the token is for, as listed later', required: true },
    {
      flags: '--scopes <scopes>',
      help: 'what the token may do, comma-separated (api, read_api, read_repository, …)',
      parse: listOption('--scopes'),
      required: true,
    },
    { flags: '--expires <date>', help: 'the day it stops working (YYYY-MM-DD)', parse: isoDate('--expires'), required: true },
    {
      flags: '--access <level>',
      help: 'role of a project or group access token: guest, reporter, developer, maintainer, owner or 10-50 (default maintainer)',
      parse: accessLevel('--access'),
    },
    { flags: '--description <text>', help: 'a longer note on a personal access token' },
  ],
  notes:
    "The value is written to stdout and nowhere else (not to stderr, not with --debug); the service never shows it again. A user's tokens are created by an administrator.",
  examples: [
    'svc tokens create --user jdoe --name ci --scopes api --expires 2027-01-31',
    'svc tokens create --project acme/api --name deploy-bot --scopes read_api,read_repository --expires 2027-01-31 --access developer',
    'svc tokens create --group acme --kind deploy --name registry --scopes read_registry --expires 2027-01-31 -o json',
  ],
  async run(ctx, _args, opts) {
    checkTarget(opts);
    const kindGiven = opts.kind ?? (opts.project !== undefined ? 'project' : opts.group !== undefined ? 'group' : 'personal');
    if (opts.access !== undefined && kindGiven !== 'project' && kindGiven !== 'group')
      throw new UsageError('--access is for project and group access tokens');
    if (opts.description !== undefined && kindGiven !== 'personal') throw new UsageError('--description is for personal access tokens');
    const http = await ctx.http({ requireToken: true });
    const target = await resolveTarget(http, opts);
    const body: QueryParams = { name: opts.name, scopes: opts.scopes, expires_at: opts.expires };
    if (opts.access !== undefined) body.access_level = opts.access;
    if (opts.description !== undefined) body.description = opts.description;
    const record = await withTokenRole(http, target, () => createToken(http, target, body));
    await showSecret(ctx, record, `created ${kindName(target.kind)} ${record.id} '${record.name}' (${target.label})`);
  },
});

const ROTATE = defineCommand<TargetFlags & { expires?: string }>({
  name: 'rotate',
  description: 'Replace a token by a new one (the old one stops working at once) and print the new value once, on stdout',
  args: [TOKEN_ID],
  options: [
    ...TARGET_OPTIONS,
    {
      flags: '--expires <date>',
      help: 'the day the new token stops working (YYYY-MM-DD; default: in a week)',
      parse: isoDate('--expires'),
    },
  ],
  notes:
    'Personal, project and group access tokens can be rotated; impersonation and deploy tokens cannot (revoke and create one). ' +
    '--self rotates the token this run signed in with: when the profile stores it, the new value is saved there too.',
  examples: [
    'svc tokens rotate --user jdoe 42 --expires 2027-01-31',
    'svc tokens rotate --self',
    'svc tokens rotate --project acme/api 17',
  ],
  async run(ctx, [id], opts) {
    checkTarget(opts);
    if (opts.kind === 'impersonation' || opts.kind === 'deploy') {
      throw new UsageError(`the service cannot rotate ${opts.kind} tokens: revoke the token and create another`);
    }
    const http = await ctx.http({ requireToken: true });
    const target = await resolveTarget(http, opts);
    const which = tokenId(target, opts, id, 'rotate');
    await checkOwner(http, target, which);
    const record = await withTokenRole(http, target, () => rotateToken(http, target, which, opts.expires));
    const old = which === 'self' ? 'the token svc was using' : `${kindName(target.kind)} ${which}`;
    await showSecret(
      ctx,
      record,
      `rotated ${old} (${target.label}): it is revoked; its successor is ${record.id}, expiring ${record.expires_at ?? 'never'}`,
    );
    if (which === 'self') await replaceRevokedToken(ctx, record.token as string);
  },
});

const REVOKE = defineCommand<TargetFlags & { yes?: boolean }>({
  name: 'revoke',
  description: 'Revoke a token: it stops working at once (deploy tokens are deleted)',
  args: [TOKEN_ID],
  options: [...TARGET_OPTIONS, YES_OPTION],
  examples: [
    'svc tokens revoke --user jdoe 42 --yes',
    'svc tokens revoke --project acme/api --kind deploy 3',
    'svc tokens revoke --self --yes',
  ],
  async run(ctx, [id], opts) {
    checkTarget(opts);
    const http = await ctx.http({ requireToken: true });
    const target = await resolveTarget(http, opts);
    const which = tokenId(target, opts, id, 'revoke');
    await checkOwner(http, target, which);
    const what = which === 'self' ? `the token svc is using (${target.label})` : `${kindName(target.kind)} ${which} (${target.label})`;
    await confirmDestructive(ctx, opts.yes, `revoke ${what}`);
    await withTokenRole(http, target, () => revokeToken(http, target, which));
    ctx.info(`revoked ${what}`);
  },
});

export const commands = [LIST, CREATE, ROTATE, REVOKE, AUDIT];
