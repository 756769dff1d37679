import { addMember, getMember, type Member, type MemberSource, removeMember, updateMember } from '../../api/members.js';
import { resolveUserId } from '../../api/users.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { withRole } from '../generic/role.js';
import { ACCESS_LEVELS, accessLevel, accessLevelName, isoDate } from '../shared/access-level.js';
import { requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { MEMBERS, memberSource, SOURCE, sourceName, type SourceFlags } from './shared/source.js';
import { writeResult } from '../shared/outcome.js';

interface MemberWriteFlags extends SourceFlags {
  user: string;
  access?: number;
  expires?: string;
  yes?: boolean;
}

/** A member written is shown as the listing shows one (`developer`, not `30`). */
const MEMBER_COLUMNS = MEMBERS.columns ?? [];
const LEVELS_HELP = 'guest, planner, reporter, developer, maintainer or owner (or the number)';

const USER: OptionSpec = {
  flags: '--user <user>',
  help: 'the user: numeric id or username',
  parse: requiredTextParser('--user'),
  required: true,
};
const EXPIRES: OptionSpec = { flags: '--expires <date>', help: 'the access ends on this day (YYYY-MM-DD)', parse: isoDate('--expires') };

/** Writes on an owner, or that make one, need the owner role; the rest maintainer. */
const roleFor = (...levels: Array<number | undefined>) => (levels.includes(ACCESS_LEVELS.owner) ? 'owner' : 'maintainer');
const until = (expires: string | null | undefined) => (expires ? ` until ${expires}` : '');

/** The user's direct membership, or one line saying they have none (exit 5). */
async function directMember(http: HttpClient, source: MemberSource, userId: number, user: string): Promise<Member> {
  try {
    return await getMember(http, source, userId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && /Not found$/.test(error.message)) {
      throw new SvcError(`${user} is not a direct member of ${sourceName(source)}`, ExitCode.notFound);
    }
    throw error;
  }
}

async function target(ctx: Context, opts: MemberWriteFlags): Promise<{ http: HttpClient; source: MemberSource; userId: number }> {
  const source = memberSource(opts);
  const http = await ctx.http({ requireToken: true });
  return { http, source, userId: await resolveUserId(http, opts.user) };
}

export const ADD = defineCommand<MemberWriteFlags>({
  name: 'add',
  description: 'Give a user access to a project or a group at an access level',
  options: [...SOURCE, USER, { flags: '--access <level>', help: LEVELS_HELP, parse: accessLevel('--access'), required: true }, EXPIRES],
  notes: 'Adding needs the maintainer role in the project or group, adding an owner the owner role.',
  examples: [
    'svc members add --group acme --user jdoe --access developer',
    'svc members add --project acme/api --user 42 --access 20 --expires 2026-12-31',
  ],
  async run(ctx, _args, opts) {
    const { http, source, userId } = await target(ctx, opts);
    const level = opts.access as number;
    const body = { user_id: userId, access_level: level, expires_at: opts.expires };
    const member = await withRole(roleFor(level), () => addMember(http, source, body));
    ctx.info(`added ${member.username} to ${sourceName(source)} as ${accessLevelName(level)}${until(member.expires_at)}`);
    await writeResult(ctx, member, MEMBER_COLUMNS);
  },
});

export const UPDATE = defineCommand<MemberWriteFlags>({
  name: 'update',
  description: "Change a member's access level or expiry date",
  options: [...SOURCE, USER, { flags: '--access <level>', help: `new level: ${LEVELS_HELP}`, parse: accessLevel('--access') }, EXPIRES],
  notes: 'Changing needs the maintainer role, and the owner role when the member is or becomes an owner.',
  examples: [
    'svc members update --group acme --user jdoe --access maintainer',
    'svc members update --project acme/api --user jdoe --expires 2027-01-31',
  ],
  async run(ctx, _args, opts) {
    if (opts.access === undefined && opts.expires === undefined) throw new UsageError('give --access or --expires (what to change)');
    const { http, source, userId } = await target(ctx, opts);
    const before = await directMember(http, source, userId, opts.user);
    const level = opts.access ?? before.access_level;
    const body = { access_level: level, expires_at: opts.expires };
    const after = await withRole(roleFor(level, before.access_level), () => updateMember(http, source, userId, body));
    const levelChange =
      level === before.access_level ? accessLevelName(level) : `${accessLevelName(before.access_level)} → ${accessLevelName(level)}`;
    ctx.info(`changed ${after.username} in ${sourceName(source)}: ${levelChange}${until(after.expires_at)}`);
    await writeResult(ctx, after, MEMBER_COLUMNS);
  },
});

export const REMOVE = defineCommand<MemberWriteFlags>({
  name: 'remove',
  description: "Take a user's direct access to a project or a group away (asks first; prints nothing on stdout)",
  options: [...SOURCE, USER, YES_OPTION],
  notes:
    'Removing needs the maintainer role, or the owner role to remove an owner; anyone may remove themself. A group keeps its last owner.',
  examples: ['svc members remove --group acme --user jdoe', 'svc members remove --project acme/api --user 42 --yes'],
  async run(ctx, _args, opts) {
    const { http, source, userId } = await target(ctx, opts);
    const member = await directMember(http, source, userId, opts.user);
    const what = `${member.username} (${accessLevelName(member.access_level)}) from ${sourceName(source)}`;
    await confirmDestructive(ctx, opts.yes, `Remove ${what}`);
    if (member.access_level === ACCESS_LEVELS.owner && source.kind === 'groups') await removeGroupOwner(http, source, userId);
    else await withRole(roleFor(member.access_level), () => removeMember(http, source, userId));
    ctx.info(`removed ${what}`);
  },
});

/** The service refuses an owner's removal to a non-owner, and the last owner's to anyone (403 both): both said. */
async function removeGroupOwner(http: HttpClient, source: MemberSource, userId: number): Promise<void> {
  try {
    await removeMember(http, source, userId);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    const why = 'removing an owner needs the owner role or administrator access, and a group keeps its last owner';
    throw new ApiError(403, error.body, `${error.message} (${why})`, error.exitCode);
  }
}
