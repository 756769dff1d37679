import { deleteUser, getUser, resolveUserId } from '../../api/users.js';
import { defineCommand } from '../../cli/spec.js';
import type { Resource } from '../generic/resource.js';
import { ADMINISTRATOR, withRole } from '../generic/role.js';
import { listVerb } from '../generic/verbs.js';
import { requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { reportWriteOutcome } from '../shared/outcome.js';
import { USER } from './shared/resource.js';

export const DELETE = defineCommand<{ hardDelete?: boolean; yes?: boolean }>({
  name: 'delete',
  description: 'Delete a user; their issues, merge requests and notes pass to the ghost user unless --hard-delete (asks first)',
  args: [{ name: 'user', help: 'numeric id or username', parse: requiredTextParser('user') }],
  options: [
    {
      flags: '--hard-delete',
      help: "remove the user's contributions too, and delete the groups they alone own (the service refuses those otherwise)",
    },
    YES_OPTION,
  ],
  notes:
    'Only administrators may do this. The service answers at once and deletes in the background. Without --hard-delete it ' +
    'refuses (409) a user who is the only owner of a group: give the group another owner first.',
  examples: ['svc users delete leaver', 'svc users delete 42 --hard-delete --yes'],
  async run(ctx, [user], opts) {
    const http = await ctx.http({ requireToken: true });
    const id = await resolveUserId(http, user as string);
    const { username } = await getUser(http, id);
    const hard = opts.hardDelete === true;
    const what = `user ${username} (${id})`;
    await confirmDestructive(ctx, opts.yes, hard ? `Delete ${what} and every contribution of theirs` : `Delete ${what}`);
    const status = await withRole(ADMINISTRATOR, () => deleteUser(http, id, hard));
    const done = hard ? `deleted ${what} and their contributions` : `deleted ${what}; their contributions now belong to the ghost user`;
    reportWriteOutcome(ctx, status, done, `deletion of ${what} accepted`);
  },
});

const MEMBERSHIPS: Resource = { ...USER, roles: { memberships: ADMINISTRATOR } };

export const LIST_MEMBERSHIPS = listVerb(MEMBERSHIPS, {
  name: 'memberships',
  path: '/users/:user/memberships',
  description: 'List the groups (type Namespace) and projects a user is a direct member of, with the access level',
  filters: [{ flags: '--type <type>', key: 'type', help: 'only memberships of projects or of groups', choices: ['Project', 'Namespace'] }],
  columns: ['source_type', 'source_id', 'source_name', 'access_level'],
  noun: 'memberships',
  notes: 'Only administrators may do this. Memberships inherited through a parent group are not listed.',
  examples: ['svc users memberships jdoe', 'svc users memberships 42 --type Namespace -o json'],
});
