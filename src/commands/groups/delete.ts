import { deleteGroup, getGroup, type GroupState } from '../../api/groups.js';
import { defineCommand } from '../../cli/spec.js';
import type { HttpClient } from '../../http/client.js';
import { ApiError } from '../../http/api-error.js';
import { withRole } from '../generic/role.js';
import { requiredTextParser } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { reportWriteOutcome, writeResult } from '../shared/outcome.js';
import { GROUP_FIELDS } from './shared/resource.js';

export const DELETE = defineCommand<{ yes?: boolean }>({
  name: 'delete',
  description: 'Delete a group with its subgroups and projects: scheduled for later where the service delays deletion',
  args: [{ name: 'group', help: 'numeric id or full path of the group', parse: requiredTextParser('group') }],
  options: [YES_OPTION],
  notes:
    'Where the service delays deletion, the group is renamed `<path>-deletion_scheduled-<id>` until the date shown, ' +
    'then removed with everything in it. Deleting needs the owner role.',
  examples: ['svc groups delete acme/legacy', 'svc groups delete 42 --yes'],
  async run(ctx, [group], opts) {
    const http = await ctx.http({ requireToken: true });
    const before = await getGroup(http, group as string);
    const what = `group ${before.full_path} (${before.id})`;
    await confirmDestructive(ctx, opts.yes, `Delete ${what}`);
    const res = await withRole('owner', () => deleteGroup(http, before.id));
    const after = res.status === 202 ? await markedGroup(http, before.id) : undefined;
    if (!after?.marked_for_deletion_on) {
      reportWriteOutcome(ctx, res.status, `deleted ${what}`, `deletion of ${what} accepted`);
      return;
    }
    ctx.info(`scheduled ${what} for deletion on ${after.marked_for_deletion_on}: renamed ${after.full_path}`);
    await writeResult(ctx, after, [...GROUP_FIELDS, 'marked_for_deletion_on']);
  },
});

/** The group after the request, or nothing when it is already gone. */
async function markedGroup(http: HttpClient, id: number): Promise<GroupState | undefined> {
  try {
    return await getGroup(http, id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
