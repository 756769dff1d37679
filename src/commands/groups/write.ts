import { transferGroup } from '../../api/groups.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { withRole } from '../generic/role.js';
import { writeVerb } from '../generic/write.js';
import { groupId, requiredTextParser } from '../shared/args.js';
import { GROUP_FIELDS, GROUPS } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

export const CREATE = writeVerb(GROUPS, {
  name: 'create',
  answer: 'status',
  description: 'Create a group, top-level or under a parent group (you become its owner)',
  done: ({ params, opts }) => `created group ${opts.parent === undefined ? '' : `${String(opts.parent)}/`}${String(params.path)}`,
  examples: [
    'svc groups create --name Platform --path platform',
    'svc groups create --name Tools --path tools --parent acme --visibility internal',
  ],
});

export const UPDATE = writeVerb(GROUPS, {
  name: 'update',
  answer: 'status',
  description: "Change a group's name, path, description or visibility (a new path moves everything under it)",
  examples: ['svc groups update acme/tools --description "Build tools"', 'svc groups update acme/tools --path devtools --name Devtools'],
});

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
