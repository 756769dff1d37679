import { deleteProject, getProject, type ProjectState } from '../../api/projects.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../http/api-error.js';
import { withRole } from '../generic/role.js';
import { PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { reportWriteOutcome, writeResult } from '../shared/outcome.js';
import { PROJECT_FIELDS } from './shared/resource.js';

const SCHEDULED_FIELDS = [...PROJECT_FIELDS, 'archived', 'marked_for_deletion_on'];

interface DeleteOptions {
  permanently?: boolean;
  yes?: boolean;
}

export const DELETE = defineCommand<DeleteOptions>({
  name: 'delete',
  description: 'Delete a project: scheduled for later where the service delays deletion, or at once with --permanently',
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    {
      flags: '--permanently',
      help: 'remove a project already scheduled for deletion now (the second step the service requires)',
    },
    YES_OPTION,
  ],
  notes:
    'Where the service delays deletion, the project is archived and renamed `<path>-deletion_scheduled-<id>` until the date shown; ' +
    '`svc projects restore ID` undoes it. Personal projects are deleted at once.',
  examples: ['svc projects delete acme/legacy-api', 'svc projects delete 42 --permanently --yes'],
  run: (ctx, [project], opts) => run(ctx, project as string, opts),
});

async function run(ctx: Context, project: string, opts: DeleteOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const before: ProjectState = await getProject(http, project);
  const fullPath = before.path_with_namespace;
  const what = `project ${fullPath} (${before.id})`;
  if (!opts.permanently && before.marked_for_deletion_on) {
    ctx.info(
      `${what} is already scheduled for deletion on ${before.marked_for_deletion_on}: nothing changed ` +
        `(remove it now with \`svc projects delete ${before.id} --permanently\`)`,
    );
    await writeResult(ctx, before, SCHEDULED_FIELDS);
    return;
  }
  await confirmDestructive(ctx, opts.yes, `${opts.permanently ? 'Permanently delete' : 'Delete'} ${what}`);
  const res = await withRole('owner', () => deleteProject(http, before.id, opts.permanently ? fullPath : undefined));
  if (opts.permanently || res.status !== 202) {
    reportWriteOutcome(ctx, res.status, `deleted ${what}`, `permanent deletion of ${what} accepted`);
    return;
  }
  const after = await markedProject(ctx, before.id);
  if (!after?.marked_for_deletion_on) {
    reportWriteOutcome(ctx, res.status, `deleted ${what}`, `deletion of ${what} accepted`);
    return;
  }
  ctx.info(
    `scheduled ${what} for deletion on ${after.marked_for_deletion_on}: renamed ${after.path_with_namespace}, archived ` +
      `(undo with \`svc projects restore ${after.id}\`, or remove it now with \`svc projects delete ${after.id} --permanently\`)`,
  );
  await writeResult(ctx, after, SCHEDULED_FIELDS);
}

/** The project after the request, or nothing when it is already gone. */
async function markedProject(ctx: Context, id: number): Promise<ProjectState | undefined> {
  try {
    return await getProject(await ctx.http(), id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
