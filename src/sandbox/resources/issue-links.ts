// Issue links (lib/api/issue_links.rb, entities/issue_link.rb, related_issue.rb,
// IssuableLinks::CreateService): a two-way relation, listed from either side oldest first as the
// issue entity plus `issue_link_id`, `link_type` (seen from that side: `blocks` reads
// `is_blocked_by` from the other) and the link's times. Creating needs the right to update both
// issues; a pair already linked is `409 Issue(s) already assigned`, an issue linked to itself `404 No
// matching issue found…`; a missing target project or issue is `find_project_issue`'s 404. Creating
// and deleting answer the IssueLink entity (README, "Issue links").
import { can, canReadProject } from '../access.js';
import { ask, type Issuable } from '../engine/ports.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { enumParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

interface LinkRec {
  id: number;
  source: { projectId: number; iid: number };
  target: { projectId: number; iid: number };
  type: 'relates_to' | 'blocks' | 'is_blocked_by';
  at: number;
}

const links = storeFor(() => ({ list: [] as LinkRec[], nextId: 1 }));

const INVERSE = { relates_to: 'relates_to', blocks: 'is_blocked_by', is_blocked_by: 'blocks' } as const;

function projectNamed(ctx: Ctx, key: string): ProjectRec {
  const w = ctx.world;
  const p = w.findProject(key);
  if (!p || !canReadProject(w, ctx.user, p)) throw E.notFound('Project');
  return p;
}

const same = (a: { projectId: number; iid: number }, i: Issuable) => a.projectId === i.projectId && a.iid === i.iid;

function basic(json: Record<string, unknown>): Record<string, unknown> {
  const keep = ['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url'];
  return Object.fromEntries(keep.map((k) => [k, json[k]]));
}

function linkJson(ctx: Ctx, l: LinkRec): Record<string, unknown> {
  const side = (s: LinkRec['source']) => basic(ask('issueOf')(ctx, ctx.world.projects.get(s.projectId)!, s.iid).json());
  return { source_issue: side(l.source), target_issue: side(l.target), link_type: l.type };
}

function findLink(ctx: Ctx, i: Issuable): LinkRec {
  const l = links(ctx.world).list.find((x) => String(x.id) === ctx.p.issue_link_id && (same(x.source, i) || same(x.target, i)));
  if (!l) throw E.findNotFound();
  return l;
}

export function mountIssueLinks({ project }: Mounts): void {
  const issue = (ctx: Ctx, p: ProjectRec) => ask('issueOf')(ctx, p);
  project.get('/issues/:issue_iid/links', { auth: 'user' }, (ctx, p) => {
    const i = issue(ctx, p);
    const related = links(ctx.world).list.flatMap((l) => {
      const mine = same(l.source, i);
      if (!mine && !same(l.target, i)) return [];
      const other = mine ? l.target : l.source;
      const otherProject = ctx.world.projects.get(other.projectId);
      if (!otherProject || !canReadProject(ctx.world, ctx.user, otherProject)) return [];
      const json = ask('issueOf')(ctx, otherProject, other.iid).json();
      const type = mine ? l.type : INVERSE[l.type];
      return [{ ...json, issue_link_id: l.id, link_type: type, link_created_at: iso(l.at), link_updated_at: iso(l.at) }];
    });
    sendJson(ctx, 200, related);
  });
  project.get('/issues/:issue_iid/links/:issue_link_id', { auth: 'user' }, (ctx, p) => {
    sendJson(ctx, 200, linkJson(ctx, findLink(ctx, issue(ctx, p))));
  });
  project.post('/issues/:issue_iid/links', { auth: 'user' }, (ctx, p) => {
    const missing = ['target_project_id', 'target_issue_iid'].filter((k) => strParam(ctx, k) === undefined);
    if (missing.length) throw E.missing(...missing);
    const type = enumParam(ctx, 'link_type', ['relates_to', 'blocks', 'is_blocked_by'] as const, 'relates_to');
    const source = issue(ctx, p);
    const targetProject = projectNamed(ctx, strParam(ctx, 'target_project_id')!);
    const iid = Number(strParam(ctx, 'target_issue_iid'));
    if (!Number.isInteger(iid)) throw E.invalid('target_issue_iid');
    const target = ask('issueOf')(ctx, targetProject, iid);
    if (!can(ctx.world, ctx.user, p, 'update_issue') || !can(ctx.world, ctx.user, targetProject, 'update_issue')) throw E.forbidden();
    if (same({ projectId: source.projectId, iid: source.iid }, target))
      throw new ApiError(404, { message: 'No matching issue found. Make sure that you are adding a valid issue URL.' });
    const store = links(ctx.world);
    if (store.list.some((l) => (same(l.source, source) && same(l.target, target)) || (same(l.source, target) && same(l.target, source))))
      throw new ApiError(409, { message: 'Issue(s) already assigned' });
    const link: LinkRec = {
      id: store.nextId++,
      source: { projectId: source.projectId, iid: source.iid },
      target: { projectId: target.projectId, iid: target.iid },
      type,
      at: ctx.world.now(),
    };
    store.list.push(link);
    sendJson(ctx, 201, linkJson(ctx, link));
  });
  project.delete('/issues/:issue_iid/links/:issue_link_id', { auth: 'user' }, (ctx, p) => {
    const link = findLink(ctx, issue(ctx, p));
    if (!can(ctx.world, ctx.user, p, 'update_issue')) throw E.notFound('No Issue Link found');
    const json = linkJson(ctx, link);
    const list = links(ctx.world).list;
    list.splice(list.indexOf(link), 1);
    sendJson(ctx, 200, json);
  });
}
