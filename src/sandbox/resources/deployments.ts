// Deployments (lib/api/deployments.rb, app/finders/deployments_finder.rb, and on the premium tier
// ee/lib/ee/api/deployments.rb with ee/app/services/deployments/approval_service.rb): reporters
// list and read; an `updated_at` filter orders by `updated_at` whatever `order_by` says (the finder's
// pairing check only reports outside development); an approval or a rejection is refused, in the
// service's order, with its texts as `400 {"message": …}`: not protected, your own deployment
// (approving only), approvals not configured, not waiting, no permission. Enough approvals make a
// blocked deployment `created`; a rejection fails it.
import { projectRole } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { enumParam, intSeg, SORTS, strParam, timeParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { cmp } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import {
  type ApprovalRec,
  DEPLOYMENT_STATUSES,
  deploymentJson,
  type DeploymentRec,
  pendingApprovals,
  projectEnvs,
  protectedEnv,
} from './environment-store.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

const ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'ref', 'finished_at'] as const;
const APPROVAL_STATUSES = ['approved', 'rejected'] as const;

const KEYS: Record<string, (d: DeploymentRec) => string | number> = {
  id: (d) => d.id,
  iid: (d) => d.id,
  created_at: (d) => d.id,
  updated_at: (d) => d.updatedAt,
  ref: (d) => d.ref,
  finished_at: (d) => d.updatedAt,
};

function listDeployments(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_deployment');
  const after = timeParam(ctx, 'updated_after');
  const before = timeParam(ctx, 'updated_before');
  const environment = strParam(ctx, 'environment');
  const status = enumParam(ctx, 'status', DEPLOYMENT_STATUSES);
  const sort = enumParam(ctx, 'sort', SORTS, 'asc');
  const orderBy = after !== undefined || before !== undefined ? 'updated_at' : enumParam(ctx, 'order_by', ORDERS, 'id');
  const { envs, deployments } = projectEnvs(ctx.world, p.id);
  const envId = environment === undefined ? undefined : (envs.find((e) => e.name === environment)?.id ?? -1);
  const key = KEYS[orderBy]!;
  const list = deployments
    .filter(
      (d) =>
        (after === undefined || d.updatedAt > after) &&
        (before === undefined || d.updatedAt < before) &&
        (envId === undefined || d.envId === envId) &&
        (status === undefined || d.status === status),
    )
    .sort((a, b) => (sort === 'asc' ? 1 : -1) * (cmp(key(a), key(b)) || a.id - b.id));
  sendList(
    ctx,
    pageOf(ctx, list).map((d) => deploymentJson(ctx.world, d)),
  );
}

function findDeployment(ctx: Ctx, p: ProjectRec): DeploymentRec {
  const id = intSeg(ctx, 'deployment_id');
  const d = projectEnvs(ctx.world, p.id).deployments.find((x) => x.id === id);
  if (!d) throw E.findNotFound();
  return d;
}

function approvalJson(ctx: Ctx, a: ApprovalRec): Record<string, unknown> {
  const user = ctx.world.users.get(a.userId)!;
  return { user: userBasic(ctx.world, user), status: a.status, created_at: iso(a.createdAt), comment: a.comment };
}

/** `ApprovalService#validate`: the first refusal, or undefined. */
function refusal(ctx: Ctx, p: ProjectRec, d: DeploymentRec, status: string): string | undefined {
  const env = projectEnvs(ctx.world, p.id).envs.find((e) => e.id === d.envId);
  const rule = env && protectedEnv(ctx.world, env);
  if (!rule) return 'This environment is not protected.';
  if (d.userId === ctx.user!.id && status === 'approved') {
    return 'You cannot approve your own deployment. This configuration can be adjusted in the protected environment settings.';
  }
  if (rule.requiredApprovals === 0) return 'Deployment approvals is not configured for this environment.';
  if (d.status !== 'blocked' || pendingApprovals(ctx.world, d) === 0) return 'This deployment is not waiting for approvals.';
  const allowed = ctx.user!.isAdmin || projectRole(ctx.world, ctx.user, p) >= rule.deployLevel;
  if (!allowed) return "You don't have permission to approve this deployment. Contact the project or group owner for help.";
  return undefined;
}

function approve(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'read_deployment');
  const d = findDeployment(ctx, p);
  const status = strParam(ctx, 'status');
  if (status === undefined) throw E.missing('status');
  enumParam(ctx, 'status', APPROVAL_STATUSES);
  const comment = strParam(ctx, 'comment') ?? null;
  const refused = refusal(ctx, p, d, status);
  if (refused) throw new ApiError(400, { message: refused });
  const now = ctx.world.now();
  let approval = d.approvals.find((a) => a.userId === ctx.user!.id);
  if (!approval) {
    approval = { userId: ctx.user!.id, status: status as ApprovalRec['status'], comment, createdAt: now };
    d.approvals.push(approval);
  } else if (approval.status !== status) {
    Object.assign(approval, { status, comment });
  }
  if (approval.status === 'rejected') d.status = 'failed';
  else if (pendingApprovals(ctx.world, d) === 0) d.status = 'created';
  d.updatedAt = now;
  sendJson(ctx, 201, approvalJson(ctx, approval));
}

export function mountDeployments({ project }: Mounts): void {
  const o = { auth: 'user' as const, job: true };
  project.get('/deployments', o, listDeployments);
  project.get('/deployments/:deployment_id', o, (ctx, p) => {
    requireAbility(ctx, p, 'read_deployment');
    const d = findDeployment(ctx, p);
    const approvals = d.approvals.map((a) => approvalJson(ctx, a));
    sendJson(ctx, 200, { ...deploymentJson(ctx.world, d), pending_approval_count: pendingApprovals(ctx.world, d), approvals });
  });
  project.post('/deployments/:deployment_id/approval', { ...o, premium: true }, approve);
}
