import { listRecords, sendRequest, writeRecordTo } from '../../api/resource.js';
import { resolveUserId } from '../../api/users.js';
import { isoTimeOption } from '../../cli/parsers.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { apiPath, type QueryParams } from '../../http/encode.js';
import { ADMINISTRATOR, withRole } from '../generic/role.js';
import { idDigits, requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';
import { writeResult } from '../shared/outcome.js';
import { PUBLIC_KEY_OPTIONS, readPublicKey } from '../shared/public-key.js';
import { answerText } from '../shared/answer-text.js';

interface Whose {
  self?: boolean;
  user?: string;
  gpg?: boolean;
}

const WHOSE: OptionSpec[] = [
  { flags: '--self', help: 'the keys of the user svc is signed in as', conflicts: ['user'] },
  {
    flags: '--user <user>',
    help: "another user's keys (username or id; adding and deleting them needs an administrator)",
    parse: requiredTextParser('--user'),
  },
  { flags: '--gpg', help: 'GPG keys instead of SSH keys' },
];

const SSH_COLUMNS = ['id', 'title', 'usage_type', 'created_at', 'expires_at'];
const GPG_COLUMNS = ['id', 'created_at'];

/** The keys' collection: `/user/keys` for --self, `/users/:id/keys` for --user (a username is looked up for writes). */
async function keysPath(ctx: Context, opts: Whose, write: boolean): Promise<string> {
  const kind = opts.gpg ? 'gpg_keys' : 'keys';
  if (opts.self) return `/user/${kind}`;
  if (opts.user === undefined) throw new UsageError('give --self or --user U');
  // The service reads a username only where it lists SSH keys; GPG keys, adding and deleting take the id.
  const byId = write || opts.gpg === true;
  const user = byId ? await resolveUserId(await ctx.http(), opts.user) : opts.user.replace(/^@/, '');
  return apiPath`/users/${user}/${kind}`;
}

/** A 403 on another user's keys means an administrator was needed; on one's own it is the service's own reason. */
const asNeeded = <T>(opts: Whose, call: () => Promise<T>) => (opts.user !== undefined ? withRole(ADMINISTRATOR, call) : call());

const list = defineCommand<Whose & ListFlags>({
  name: 'list',
  description: "List a user's SSH keys (or with --gpg their GPG keys); anyone's are readable",
  options: [...WHOSE, ...LIST_OPTIONS],
  examples: ['svc keys list --self', 'svc keys list --user ann --gpg -o json'],
  async run(ctx, _args, opts) {
    const path = await keysPath(ctx, opts, false);
    const http = await ctx.http({ requireToken: opts.self === true });
    const pages = listRecords<unknown>(http, path, { per_page: perPageFor(opts) });
    await outputList(ctx, pages, opts, opts.gpg ? GPG_COLUMNS : SSH_COLUMNS, opts.gpg ? 'GPG keys' : 'SSH keys');
  },
});

const add = defineCommand<Whose & { title?: string; expiresAt?: string; usageType?: string; key?: string; keyFile?: string }>({
  name: 'add',
  description: 'Add an SSH key (or with --gpg a GPG key) to your account, or as an administrator to another user',
  options: [
    ...WHOSE,
    ...PUBLIC_KEY_OPTIONS,
    { flags: '--title <title>', help: 'what the SSH key is for (required for SSH keys)', parse: requiredTextParser('--title') },
    { flags: '--expires-at <time>', help: 'when the SSH key stops working (ISO 8601)', parse: isoTimeOption('--expires-at') },
    {
      flags: '--usage-type <type>',
      help: 'what the SSH key may do (the service defaults to both)',
      choices: ['auth', 'signing', 'auth_and_signing'],
    },
  ],
  examples: [
    'svc keys add --self --title laptop --key-file ~/.ssh/id_ed25519.pub',
    'gpg --armor --export ann@example.com | svc keys add --user ann --gpg --key-file -',
  ],
  async run(ctx, _args, opts) {
    if (!opts.gpg && opts.title === undefined) throw new UsageError('give --title for an SSH key');
    if (opts.gpg && (opts.title ?? opts.expiresAt ?? opts.usageType) !== undefined) {
      throw new UsageError('a GPG key takes no --title, --expires-at or --usage-type');
    }
    const key = await readPublicKey(ctx, opts);
    const body: QueryParams = { key };
    if (opts.title !== undefined) body.title = opts.title;
    if (opts.expiresAt !== undefined) body.expires_at = opts.expiresAt;
    if (opts.usageType !== undefined) body.usage_type = opts.usageType;
    const http = await ctx.http({ requireToken: true });
    const path = await keysPath(ctx, opts, true);
    const record = await asNeeded(opts, () => writeRecordTo<Record<string, unknown>>(http, 'POST', path, body));
    ctx.info(`added ${opts.gpg ? 'GPG' : 'SSH'} key ${answerText(record.id) ?? '(no id in the answer)'}`);
    await writeResult(ctx, record, opts.gpg ? GPG_COLUMNS : ['id', 'title', 'usage_type', 'expires_at', 'key']);
  },
});

const remove = defineCommand<Whose & { yes?: boolean }>({
  name: 'delete',
  description: 'Delete an SSH key (or with --gpg a GPG key) of yours, or as an administrator of another user; asks first unless --yes',
  args: [{ name: 'key', help: 'the key id (what list prints first)', parse: (value) => idDigits('key id', value) }],
  options: [...WHOSE, YES_OPTION],
  examples: ['svc keys delete 41 --self --yes', 'svc keys delete 7 --user ann --gpg --yes'],
  async run(ctx, args, opts) {
    const id = args[0] as string;
    const what = `${opts.gpg ? 'GPG' : 'SSH'} key ${id}`;
    if (!opts.self && opts.user === undefined) throw new UsageError('give --self or --user U');
    await confirmDestructive(ctx, opts.yes, `Delete ${what}${opts.user !== undefined ? ` of ${opts.user}` : ''}`);
    const http = await ctx.http({ requireToken: true });
    const path = `${await keysPath(ctx, opts, true)}/${id}`;
    await asNeeded(opts, () => sendRequest(http, 'DELETE', path));
    ctx.info(`deleted ${what}`);
  },
});

export const commands = [list, add, remove];
