// `POST /projects/:id/issues/:issue_iid/move` (lib/api/issues.rb, Issues::MoveService): the issue
// starts again in the target project with the next iid there, the same author, title, description,
// labels and assignee; the original is closed by the caller and points at it (`moved_to_id`). 201 with
// the new issue. Refusals are the service's MoveError texts, as 400 (README, "Moving an issue").
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { intParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { issueJson } from './issue-json.js';
import { addIssue, findIssue, saveIssue } from './issues.js';
import type { Mounts } from './mounts.js';

function move(ctx: Ctx, p: ProjectRec): void {
  const issue = findIssue(ctx, p, () => E.notFound('Issue'));
  const to = intParam(ctx, 'to_project_id');
  if (to === undefined) throw E.missing('to_project_id');
  const target = ctx.world.projects.get(to);
  if (!target || !can(ctx.world, ctx.user, target, 'read_project')) throw E.notFound('Project');
  // `can_move?`: not moved yet, and `admin_issue` (the reporter role) on both projects.
  const allowed =
    issue.movedToId === undefined && can(ctx.world, ctx.user, p, 'update_issue') && can(ctx.world, ctx.user, target, 'update_issue');
  if (!allowed) throw E.badRequest('Cannot move issue due to insufficient permissions!');
  if (target.id === p.id) throw E.badRequest('Cannot move issue to project it originates from!');
  const now = ctx.world.now();
  const moved = addIssue(ctx.world, target.id, {
    title: issue.title,
    description: issue.description,
    state: 'opened',
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedById: null,
    labels: issue.labels,
    milestone: null,
    authorId: issue.authorId,
    assigneeId: issue.assigneeId,
    upvotes: 0,
    userNotesCount: 0,
    confidential: issue.confidential ?? false,
    dueDate: issue.dueDate ?? null,
  });
  const closed = issue.state === 'closed' ? {} : { state: 'closed' as const, closedAt: now, closedById: ctx.user!.id };
  saveIssue(ctx, p, { ...issue, ...closed, updatedAt: now, movedToId: moved.id });
  sendJson(ctx, 201, issueJson(ctx.world, target, moved));
}

export function mountIssueMove({ project }: Mounts): void {
  project.post('/issues/:issue_iid/move', { auth: 'user' }, move);
}
