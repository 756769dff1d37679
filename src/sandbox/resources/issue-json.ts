// The Issue entity as the service renders it (reference endpoints §1).
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Issue } from './issue-filters.js';
import { userBasic } from '../entities/user.js';
import { ask } from '../engine/ports.js';
import { timeStatsJson } from '../util/duration.js';

export function issueJson(w: World, p: ProjectRec, i: Issue): Record<string, unknown> {
  const user = (id: number | null) => (id === null ? null : userBasic(w, w.users.get(id)!));
  const assignee = user(i.assigneeId);
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
    task_completion_status: { count: 0, completed_count: 0 },
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${p.fullPath}#${i.iid}` },
  };
}
