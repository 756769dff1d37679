// Resources that a project and a group can both have (labels, milestones): stored per owner `key`,
// mounted once under /projects/:id and once under /groups/:id.
import { groupRole, PLANNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import type { GroupRec, ProjectRec } from '../store/records.js';

export interface ProjectOrGroup {
  key: string;
  project: ProjectRec | null;
  group: GroupRec | null;
}

export const projectOwner = (p: ProjectRec): ProjectOrGroup => ({ key: `project:${p.id}`, project: p, group: null });

export const groupOwner = (g: GroupRec): ProjectOrGroup => ({ key: `group:${g.id}`, project: null, group: g });

/** A group's planners and up, or an administrator: who may change what the group owns. */
export function plansGroup(ctx: Ctx, g: GroupRec): boolean {
  return ctx.user!.isAdmin || groupRole(ctx.world, ctx.user!.id, g) >= PLANNER;
}
