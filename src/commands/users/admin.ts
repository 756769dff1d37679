import { changeUserState, createUser, getUser, resolveUserId, updateUser, type UserStateAction } from '../../api/users.js';
import { defineCommand, type CommandSpec, type OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { ADMINISTRATOR, withRole } from '../generic/role.js';
import { requireOneField } from '../generic/write.js';
import { attributeName, serviceParams } from '../generic/resource.js';
import { requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { USER_FIELDS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

const USER_ARG = { name: 'user', help: 'numeric id or username', parse: requiredTextParser('user') };
const ADMIN_NOTE = 'Only administrators may do this.';

const PASSWORD_OPTIONS: OptionSpec[] = [
  {
    flags: '--password <password>',
    key: 'password',
    help: 'the initial password (at least 8 characters; visible to other local users while svc runs)',
  },
  { flags: '--reset-password', key: 'reset_password', help: 'email the user a link to set a password' },
  {
    flags: '--random-password',
    key: 'force_random_password',
    help: 'set a random password the user never learns (for accounts that sign in otherwise)',
  },
];

const CREATE_BODY: OptionSpec[] = [
  { flags: '--email <email>', key: 'email', help: 'primary email address', parse: requiredTextParser('--email'), required: true },
  {
    flags: '--username <username>',
    key: 'username',
    help: 'username (also the personal namespace path)',
    parse: requiredTextParser('--username'),
    required: true,
  },
  { flags: '--name <name>', key: 'name', help: 'full name', parse: requiredTextParser('--name'), required: true },
  ...PASSWORD_OPTIONS,
  { flags: '--admin', key: 'admin', help: 'make the user an administrator' },
  { flags: '--external', key: 'external', help: 'mark the user external (no access to internal projects)' },
  { flags: '--skip-confirmation', key: 'skip_confirmation', help: 'consider the email confirmed' },
];

export const CREATE = defineCommand<Record<string, unknown>>({
  name: 'create',
  description: 'Create a user account',
  options: CREATE_BODY,
  notes: ADMIN_NOTE,
  examples: [
    'svc users create --email ann@example.com --username ann --name "Ann Lee" --reset-password',
    'svc users create --email bot@example.com --username build-bot --name "Build bot" --random-password --external',
  ],
  async run(ctx, _args, opts) {
    const ways = PASSWORD_OPTIONS.filter((option) => opts[attributeName(option.flags)] !== undefined);
    if (ways.length !== 1)
      throw new UsageError('give one of --password, --reset-password or --random-password (how the user gets a password)');
    const http = await ctx.http({ requireToken: true });
    const user = await withRole(ADMINISTRATOR, async () => createUser(http, await serviceParams(ctx, CREATE_BODY, opts)));
    ctx.info(`created user ${user.username} (${user.id})`);
    await writeResult(ctx, user, USER_FIELDS);
  },
});

const UPDATE_BODY: OptionSpec[] = [
  { flags: '--name <name>', key: 'name', help: 'new full name', parse: requiredTextParser('--name') },
  {
    flags: '--username <username>',
    key: 'username',
    help: 'new username (moves the personal namespace)',
    parse: requiredTextParser('--username'),
  },
  { flags: '--email <email>', key: 'email', help: 'new primary email address', parse: requiredTextParser('--email') },
  { flags: '--admin', key: 'admin', help: 'make the user an administrator' },
  { flags: '--no-admin', key: 'admin', help: 'take administrator access away' },
  { flags: '--external', key: 'external', help: 'mark the user external' },
  { flags: '--no-external', key: 'external', help: 'mark the user internal again' },
];

export const UPDATE = defineCommand<Record<string, unknown>>({
  name: 'update',
  description: "Change a user's name, username, email, administrator or external flag",
  args: [USER_ARG],
  options: UPDATE_BODY,
  notes: ADMIN_NOTE,
  examples: ['svc users update ann --name "Ann Lee-Smith"', 'svc users update 42 --no-admin --external'],
  async run(ctx, [user], opts) {
    requireOneField(UPDATE_BODY, opts);
    const params = await serviceParams(ctx, UPDATE_BODY, opts);
    const http = await ctx.http({ requireToken: true });
    const id = await resolveUserId(http, user as string);
    const after = await withRole(ADMINISTRATOR, () => updateUser(http, id, params));
    ctx.info(`updated user ${after.username} (${id}): ${Object.keys(params).join(', ')}`);
    await writeResult(ctx, after, USER_FIELDS);
  },
});

interface StateVerb {
  action: UserStateAction;
  /** Said when the state changed: `blocked`. */
  past: string;
  description: string;
  destructive?: boolean;
}

/** A state action: the service answers `true`, `false` or `null`, so the user is read again to say what changed. */
function stateVerb(verb: StateVerb): CommandSpec<{ yes?: boolean }> {
  return defineCommand<{ yes?: boolean }>({
    name: verb.action,
    description: verb.description,
    args: [USER_ARG],
    options: verb.destructive ? [YES_OPTION] : [],
    notes: ADMIN_NOTE,
    examples: [`svc users ${verb.action} jdoe`, `svc users ${verb.action} 42${verb.destructive ? ' --yes' : ''} -o json`],
    async run(ctx, [user], opts) {
      const http = await ctx.http({ requireToken: true });
      const id = await resolveUserId(http, user as string);
      const before = await getUser(http, id);
      const what = `user ${before.username} (${id})`;
      if (verb.destructive) await confirmDestructive(ctx, opts.yes, `${verb.action === 'ban' ? 'Ban' : 'Block'} ${what}`);
      await withRole(ADMINISTRATOR, () => changeUserState(http, id, verb.action));
      const after = await getUser(http, id);
      ctx.info(
        after.state === before.state
          ? `${what} is ${after.state}: nothing changed`
          : `${verb.past} ${what}: ${before.state} → ${after.state}`,
      );
      await writeResult(ctx, after, USER_FIELDS);
    },
  });
}

export const STATE_VERBS = [
  stateVerb({
    action: 'block',
    past: 'blocked',
    destructive: true,
    description: 'Block a user: they can no longer sign in or use their tokens (asks first)',
  }),
  stateVerb({ action: 'unblock', past: 'unblocked', description: 'Unblock a blocked or banned user' }),
  stateVerb({
    action: 'deactivate',
    past: 'deactivated',
    description: 'Deactivate a dormant user (the service refuses users active recently)',
  }),
  stateVerb({ action: 'activate', past: 'activated', description: 'Reactivate a deactivated user' }),
  stateVerb({
    action: 'ban',
    past: 'banned',
    destructive: true,
    description: 'Ban a user: blocked, and their contributions hidden (asks first)',
  }),
  stateVerb({ action: 'unban', past: 'unbanned', description: 'Lift a ban' }),
];
