// `GET /issues/:id` (reference endpoints §1): an issue by its global id, for administrators only (others
// `403 {"message":"403 Forbidden"}`); an unknown id is `Issue.find`'s `404 Not found`.
import { E } from '../server/errors.js';
import { intSeg } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { World } from '../store/world.js';
import { singleIssueJson } from './issue-json.js';
import type { Issue } from './issue-filters.js';
import { issueStore } from './issues.js';
import type { Mounts } from './mounts.js';

/** Seeded issues are numbered 8 slots per project from 101 (issues.ts); later ones are found where they were written. */
function issueById(w: World, id: number): Issue | null {
  const store = issueStore(w);
  const slot = id - 101;
  if (slot >= 0 && slot < w.seededProjects * 8) {
    const seeded = store.issues.get(Math.floor(slot / 8) + 1, (slot % 8) + 1);
    if (seeded?.id === id) return seeded;
  }
  for (const pid of store.changed) {
    const found = store.issues.list(pid).find((i) => i.id === id);
    if (found) return found;
  }
  return null;
}

export function mountIssueById({ root }: Mounts): void {
  root.get('/issues/:issue_id', { auth: 'user' }, (ctx) => {
    if (!ctx.user!.isAdmin) throw E.forbidden();
    const issue = issueById(ctx.world, intSeg(ctx, 'issue_id'));
    if (!issue) throw E.findNotFound();
    sendJson(ctx, 200, singleIssueJson(ctx, ctx.world.projects.get(issue.projectId)!, issue));
  });
}
