// Commit statuses (lib/api/commit_statuses.rb, app/services/ci/create_commit_status_service.rb,
// entities/commit_status.rb): a POST finds the caller's pending or running status of the same name,
// ref and pipeline and moves it (pending → running → success | failed | canceled), else starts a new one; a
// move the state machine has no edge for → 400 `Cannot transition status via :<event> from :<state>`.
// The two routes live under different paths, so they are mounted here rather than by the plain engine;
// the declared fields are still read by it. The external pipeline is kept here (README, "Commit statuses").
import { readFields, type Fields } from '../engine/fields.js';
import { E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { userBasic } from '../entities/user.js';

const STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const;
type State = 'created' | (typeof STATES)[number];

const FIELDS: Fields = {
  state: { type: 'string', required: true, values: STATES },
  ref: { type: 'string' },
  target_url: { type: 'string' },
  description: { type: 'string' },
  name: { type: 'string' },
  context: { type: 'string' },
  coverage: { type: 'string' },
  pipeline_id: { type: 'integer' },
};

interface StatusRec {
  id: number;
  sha: string;
  ref: string;
  name: string;
  status: State;
  targetUrl: string | null;
  description: string | null;
  coverage: number | null;
  pipelineId: number;
  authorId: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** Ids far above the seeded pipelines' and jobs', so an external pipeline or status never shares one. */
const statuses = storeFor(() => ({
  byProject: new Map<number, StatusRec[]>(),
  pipelines: new Map<number, { pid: number; sha: string; ref: string }>(),
  nextId: 900_001,
  nextPipeline: 800_001,
}));

/** The event a request's state fires, and the states it leaves from (app/models/commit_status.rb). */
const EVENTS: Record<(typeof STATES)[number], [string, readonly State[]]> = {
  pending: ['enqueue', ['created']],
  running: ['run', ['pending']],
  success: ['success', ['created', 'pending', 'running']],
  failed: ['drop', ['created', 'pending', 'running']],
  canceled: ['cancel', ['created', 'pending', 'running']],
};

function move(rec: StatusRec, state: (typeof STATES)[number], now: number): void {
  // `running` enqueues first (without raising), as the service does, so a new status can start running.
  if (state === 'running' && rec.status === 'created') rec.status = 'pending';
  const [event, from] = EVENTS[state];
  if (!from.includes(rec.status)) throw E.badRequest(`Cannot transition status via :${event} from :${rec.status}`);
  rec.status = state;
  if (state === 'running') rec.startedAt = now;
  if (state !== 'pending' && state !== 'running') rec.finishedAt = now;
}

function pipelineFor(w: World, p: ProjectRec, sha: string, ref: string, given: number | undefined): number {
  const store = statuses(w);
  if (given !== undefined) {
    const known = store.pipelines.get(given);
    if (!known || known.pid !== p.id || known.sha !== sha || known.ref !== ref) throw E.notFound('Pipeline for pipeline_id, sha and ref');
    return given;
  }
  for (const [id, x] of store.pipelines) if (x.pid === p.id && x.sha === sha && x.ref === ref) return id;
  const id = store.nextPipeline++;
  store.pipelines.set(id, { pid: p.id, sha, ref });
  return id;
}

export function mountCommitStatuses({ project }: Mounts): void {
  project.post('/statuses/:sha', { auth: 'user', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'push_code');
    const w = ctx.world;
    // `user_project.commit(params[:sha])`: a branch, a tag or a short SHA names the commit too.
    const sha = w.repos.resolveRef(p.id, ctx.p.sha!);
    if (!sha) throw E.notFound('Commit');
    const input = readFields(ctx, FIELDS);
    const name = String(input.name ?? input.context ?? 'default');
    const ref = String(input.ref ?? w.repos.branchForSha(p.id, sha));
    const pipelineId = pipelineFor(w, p, sha, ref, input.pipeline_id as number | undefined);
    const store = statuses(w);
    const list = store.byProject.get(p.id) ?? [];
    store.byProject.set(p.id, list);
    const now = Date.now();
    let rec = list.find(
      (s) =>
        s.sha === sha &&
        s.name === name &&
        s.ref === ref &&
        s.pipelineId === pipelineId &&
        s.authorId === ctx.user!.id &&
        (s.status === 'pending' || s.status === 'running'),
    );
    if (!rec) {
      rec = {
        id: store.nextId++,
        sha,
        ref,
        name,
        status: 'created',
        targetUrl: null,
        description: null,
        coverage: null,
        pipelineId,
        authorId: ctx.user!.id,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
      };
      move(rec, input.state as (typeof STATES)[number], now);
      list.push(rec);
    } else move(rec, input.state as (typeof STATES)[number], now);
    if (input.target_url !== undefined) rec.targetUrl = String(input.target_url);
    if (input.description !== undefined) rec.description = String(input.description);
    if (input.coverage !== undefined) rec.coverage = Number(input.coverage);
    sendJson(ctx, 201, statusJson(ctx.world, rec));
  });
  project.get('/repository/commits/:sha/statuses', { auth: 'public', job: true }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    if (!ctx.world.repos.resolveRef(p.id, ctx.p.sha!)) throw E.notFound('Commit');
    // Then read by `sha: params[:sha]` as given: a short SHA or a branch names the commit, yet lists none.
    const sha = ctx.p.sha!;
    const ref = strParam(ctx, 'ref');
    const stage = strParam(ctx, 'stage');
    const name = strParam(ctx, 'name');
    let list = (statuses(ctx.world).byProject.get(p.id) ?? []).filter(
      (s) => s.sha === sha && (!ref || s.ref === ref) && (!stage || stage === 'external') && (!name || s.name === name),
    );
    // Without `all`, only the newest status of each name (and ref) is listed: the service's `latest`.
    if (boolParam(ctx, 'all') !== true) list = list.filter((s) => !list.some((o) => o.id > s.id && o.name === s.name && o.ref === s.ref));
    sendList(
      ctx,
      pageOf(ctx, list).map((s) => statusJson(ctx.world, s)),
    );
  });
}

function statusJson(w: World, s: StatusRec): Record<string, unknown> {
  const author = w.users.get(s.authorId);
  return {
    id: s.id,
    sha: s.sha,
    ref: s.ref,
    status: s.status,
    name: s.name,
    target_url: s.targetUrl,
    description: s.description,
    created_at: iso(s.createdAt),
    started_at: s.startedAt === null ? null : iso(s.startedAt),
    finished_at: s.finishedAt === null ? null : iso(s.finishedAt),
    allow_failure: false,
    coverage: s.coverage,
    pipeline_id: s.pipelineId,
    author: author ? userBasic(w, author) : null,
  };
}
