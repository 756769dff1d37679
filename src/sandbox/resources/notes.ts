// Issue notes: `GET /projects/:id/issues/:issue_iid/notes` (default sort
// `desc`, reference endpoints §1). Seeded notes derive from (seed, project, iid, n).
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, SORTS } from '../server/params.js';
import { sendList } from '../server/respond.js';
import type { IssueRec } from '../store/records.js';
import { NOTE_BODIES } from '../store/seed.js';
import type { World } from '../store/world.js';
import { iso } from '../util.js';
import { requireAbility } from './guards.js';
import { findIssue } from './issues.js';
import type { Mounts } from './mounts.js';
import { userBasic } from './users.js';

const ISSUE_SLOTS = 8;
const NOTE_SLOTS = 64;

function noteJson(w: World, issue: IssueRec, n: number): Record<string, unknown> {
  const { projectId: pid, iid } = issue;
  const h = w.h(53, pid, iid, n);
  const created = w.projects.get(pid)!.createdAt + iid * 3 * 3_600_000 + n * 600_000 + (h % 1000);
  return {
    id: 10 + ((pid - 1) * ISSUE_SLOTS + (iid - 1)) * NOTE_SLOTS + n,
    type: null,
    body: NOTE_BODIES[(h >>> 8) % NOTE_BODIES.length],
    attachment: null,
    author: userBasic(w, w.users.get(1 + (h % w.users.size))!),
    created_at: iso(created),
    updated_at: iso(created),
    system: false,
    noteable_id: issue.id,
    noteable_type: 'Issue',
    project_id: pid,
    noteable_iid: iid,
    resolvable: false,
    confidential: false,
    internal: false,
    commands_changes: {},
  };
}

export function mountNotes({ project }: Mounts): void {
  project.get('/issues/:issue_iid/notes', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_issue');
    const issue = findIssue(ctx, p, () => E.notFound('Issue'));
    const sort = enumParam(ctx, 'sort', SORTS, 'desc');
    enumParam(ctx, 'order_by', ['created_at', 'updated_at'] as const);
    const n = issue.userNotesCount;
    const order = Array.from({ length: n }, (_, k) => (sort === 'asc' ? k + 1 : n - k));
    sendList(
      ctx,
      pageOf(ctx, order).map((k) => noteJson(ctx.world, issue, k)),
    );
  });
}
