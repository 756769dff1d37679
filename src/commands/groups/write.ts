import { transferGroup } from '../../api/groups.js';
import { type CommandSpec, defineCommand, type OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import type { QueryParams } from '../../http/encode.js';
import { recordWriteVerb, withRole } from '../generic/record-write.js';
import { attributeName } from '../generic/resource.js';
import { VISIBILITIES } from '../shared/service-enums.js';
import { groupId, requiredTextParser } from '../shared/args.js';
import { GROUP_FIELDS, GROUPS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

const changed = (params: QueryParams) => Object.keys(params).join(', ');

export const CREATE = recordWriteVerb(GROUPS, {
  name: 'create',
  method: 'POST',
  path: '/groups',
  role: 'owner',
  description: 'Create a group, top-level or under a parent group (you become its owner)',
  body: [
    { flags: '--name <name>', key: 'name', help: 'group name', parse: requiredTextParser('--name'), required: true },
    { flags: '--path <path>', key: 'path', help: 'URL path of the group', parse: requiredTextParser('--path'), required: true },
    {
      flags: '--parent <group>',
      key: 'parent_id',
      help: 'create it under this group (numeric id or full path; needs the owner role there)',
      parse: requiredTextParser('--parent'),
      resolve: groupId,
    },
    { flags: '--visibility <level>', key: 'visibility', help: 'who can see it (default: private)', choices: VISIBILITIES },
    { flags: '--description <text>', key: 'description', help: 'group description' },
  ],
  done: (_args, params, opts) => `created group ${opts.parent === undefined ? '' : `${String(opts.parent)}/`}${String(params.path)}`,
  examples: [
    'svc groups create --name Platform --path platform',
    'svc groups create --name Tools --path tools --parent acme --visibility internal',
  ],
});

const UPDATE_BODY: OptionSpec[] = [
  { flags: '--name <name>', key: 'name', help: 'new name', parse: requiredTextParser('--name') },
  {
    flags: '--path <path>',
    key: 'path',
    help: 'new URL path (renames the full path of its subgroups and projects)',
    parse: requiredTextParser('--path'),
  },
  { flags: '--description <text>', key: 'description', help: 'new description' },
  { flags: '--visibility <level>', key: 'visibility', help: 'new visibility', choices: VISIBILITIES },
];

const updateVerb = recordWriteVerb(GROUPS, {
  name: 'update',
  method: 'PUT',
  role: 'owner',
  description: "Change a group's name, path, description or visibility (a new path moves everything under it)",
  body: UPDATE_BODY,
  done: (args, params) => `updated group ${String(args[0])}: ${changed(params)}`,
  examples: ['svc groups update acme/tools --description "Build tools"', 'svc groups update acme/tools --path devtools --name Devtools'],
});

/** The service takes an empty update and changes nothing: refused here, as a slip. */
export const UPDATE: CommandSpec = {
  ...updateVerb,
  run(ctx, args, opts) {
    if (UPDATE_BODY.every((option) => opts[attributeName(option.flags)] === undefined))
      throw new UsageError('give at least one of --name, --path, --description, --visibility (what to change)');
    return updateVerb.run(ctx, args, opts);
  },
};

interface TransferFlags {
  parent?: string;
  toTopLevel?: boolean;
}

export const TRANSFER = defineCommand<TransferFlags>({
  name: 'transfer',
  description: 'Move a group under another group, or make it a top-level group',
  args: [{ name: 'group', help: 'numeric id or full path of the group to move', parse: requiredTextParser('group') }],
  options: [
    {
      flags: '--parent <group>',
      help: 'the new parent group (numeric id or full path; needs the owner role there)',
      parse: requiredTextParser('--parent'),
      conflicts: ['toTopLevel'],
    },
    { flags: '--to-top-level', help: 'make it a top-level group' },
  ],
  notes: 'Moving needs the owner role on the group. Its subgroups and projects move with it, and their paths change.',
  examples: ['svc groups transfer acme/tools --parent platform', 'svc groups transfer acme/tools --to-top-level'],
  async run(ctx, [group], opts) {
    if ((opts.parent === undefined) !== (opts.toTopLevel === true))
      throw new UsageError('give --parent GROUP or --to-top-level (where to move the group)');
    const http = await ctx.http({ requireToken: true });
    const body = opts.parent === undefined ? {} : { group_id: await groupId(http, opts.parent) };
    const moved = await withRole('owner', () => transferGroup(http, group as string, body));
    const where = opts.parent === undefined ? 'the top level' : `group ${opts.parent}`;
    ctx.info(`transferred group ${String(group)} to ${where}: now ${moved.full_path}`);
    await writeResult(ctx, moved, GROUP_FIELDS);
  },
});
