// Checks shared by the write routes of project resources.
import { can, type ProjectAbility } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import type { ProjectRec } from '../store/records.js';

export function requireAbility(ctx: Ctx, p: ProjectRec, ability: ProjectAbility): void {
  if (!can(ctx.world, ctx.user, p, ability)) throw E.forbidden();
}

/** The message a push gets while the repository is being moved (reference §1.4). */
const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';

/** Writes to the repository of a project being moved are refused, as its pushes are. */
export function requireWritable(p: ProjectRec): void {
  if (p.readOnly) throw E.badRequest(READ_ONLY_MESSAGE);
}
