// The Issue entity as the service renders it (reference endpoints §1).
import type { Ctx } from '../server/context.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Issue } from './issue-filters.js';
import { userBasic } from '../entities/user.js';
import { ask } from '../engine/ports.js';
import { timeStatsJson } from '../util/duration.js';

/** The description's task list items (`- [ ]`, `* [x]`, …), as `Taskable` counts them. */
function tasks(description: string): { count: number; completed: number } {
  const items = [...description.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX])\]/gm)];
  return { count: items.length, completed: items.filter((m) => m[1] !== ' ').length };
}

export function issueJson(w: World, p: ProjectRec, i: Issue): Record<string, unknown> {
  const user = (id: number | null) => (id === null ? null : userBasic(w, w.users.get(id)!));
  const assignee = user(i.assigneeId);
  const list = tasks(i.description);
  const api = `${w.base()}/api/v4/projects/${p.id}`;
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.projectId,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    closed_at: i.closedAt === null ? null : iso(i.closedAt),
    closed_by: user(i.closedById),
    labels: i.labels,
    milestone:
      i.milestone === null
        ? null
        : {
            id: 1,
            iid: 1,
            project_id: p.id,
            title: i.milestone,
            description: null,
            state: 'active',
            due_date: null,
            start_date: null,
            web_url: `${w.base()}/${p.fullPath}/-/milestones/1`,
          },
    assignees: assignee ? [assignee] : [],
    assignee,
    author: user(i.authorId),
    type: 'ISSUE',
    user_notes_count: i.userNotesCount,
    merge_requests_count: 0,
    upvotes: i.upvotes,
    downvotes: 0,
    due_date: i.dueDate ?? null,
    confidential: i.confidential ?? false,
    discussion_locked: null,
    issue_type: 'issue',
    web_url: `${w.base()}/${p.fullPath}/-/issues/${i.iid}`,
    time_stats: timeStatsJson(ask('trackedTime')(w, 'Issue', i.id)),
    task_completion_status: { count: list.count, completed_count: list.completed },
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${p.fullPath}#${i.iid}` },
    // The rest of the CE keys the reference lists (endpoints §1), at what an issue made here has.
    has_tasks: list.count > 0,
    task_status: i.description === '' ? '' : `${list.completed} of ${list.count} checklist item${list.count === 1 ? '' : 's'} completed`,
    moved_to_id: i.movedToId ?? null,
    service_desk_reply_to: null,
    severity: 'UNKNOWN',
    start_date: null,
    imported: false,
    imported_from: 'none',
    _links: {
      self: `${api}/issues/${i.iid}`,
      notes: `${api}/issues/${i.iid}/notes`,
      award_emoji: `${api}/issues/${i.iid}/award_emoji`,
      project: api,
      closed_as_duplicate_of: null,
    },
  };
}

/** A single read also says whether the caller is subscribed (its author and assignee are, until they unsubscribe). */
export function singleIssueJson(ctx: Ctx, p: ProjectRec, i: Issue): Record<string, unknown> {
  const assigneeIds = i.assigneeId === null ? [] : [i.assigneeId];
  const subscribed = ask('isSubscribed')(ctx, { type: 'Issue', id: i.id, authorId: i.authorId, assigneeIds });
  return { ...issueJson(ctx.world, p, i), subscribed };
}
