// A project's lifecycle (reference endpoints §8): `PUT /projects/:id`, archive and unarchive,
// delayed deletion (mark, then `permanently_remove`), restore, transfer and fork.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, intParam, strParam } from '../server/params.js';
import { sendJson, sendRawJson } from '../server/respond.js';
import type { ProjectRec, Visibility } from '../store/records.js';
import type { World } from '../store/world.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';
import { ask, offer } from '../engine/ports.js';
import { setDefaultBranch } from '../store/default-branches.js';
import { marked } from './deletion-marks.js';
import { forkTotal, recordFork } from './forks.js';
import { projectJsonText } from '../entities/project.js';
import { applySettings, readSettings, UPDATE_ATTRIBUTES } from './project-settings.js';
import { pathFormatError, VISIBILITIES } from './paths.js';

/** The instance's deletion delay (the service's default adjourned period). */
const SCHEDULED_SUFFIX = /-deletion_scheduled-\d+$/;

function sendProject(ctx: Ctx, status: number, p: ProjectRec): void {
  sendRawJson(ctx, status, projectJsonText(ctx.world, p, { viewer: ctx.user, basic: false, statistics: false }));
}

function topicsParam(ctx: Ctx): string[] | undefined {
  const v = ctx.params.topics ?? ctx.params.tag_list;
  if (v === undefined || v === null) return undefined;
  const list = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return list.map((t) => t.trim()).filter(Boolean);
}

function updateProject(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'admin_project');
  if (!UPDATE_ATTRIBUTES.some((k) => ctx.params[k] !== undefined || ctx.files[k] !== undefined)) throw E.atLeastOne(...UPDATE_ATTRIBUTES);
  const w = ctx.world;
  const settings = readSettings(ctx);
  // Only administrators move a repository; the service drops the attribute for anyone else.
  const storage = ctx.user!.isAdmin ? strParam(ctx, 'repository_storage') : undefined;
  const name = strParam(ctx, 'name');
  const path = strParam(ctx, 'path');
  const visibility = strParam(ctx, 'visibility');
  if (visibility !== undefined && !(VISIBILITIES as readonly string[]).includes(visibility)) throw E.notValid('visibility');
  const errors: Record<string, string[]> = {};
  const nameOwner = name === undefined ? undefined : w.projectNames.get(`${w.nsKey(p)}\n${name.toLowerCase()}`);
  if (nameOwner !== undefined && nameOwner !== p.id) errors.name = ['has already been taken'];
  const pathOwner = path === undefined ? undefined : w.projectsByPath.get(`${w.nsFullPath(p)}/${path}`.toLowerCase());
  const badPath = path === undefined ? null : pathFormatError(path);
  if (badPath) errors.path = [badPath];
  else if (pathOwner !== undefined && pathOwner !== p.id) errors.path = ['has already been taken'];
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  const branch = strParam(ctx, 'default_branch');
  if (branch !== undefined && !w.repos.branchCommits(p.id, branch)) throw E.badRequest('Could not set the default branch');
  if (storage !== undefined && !w.storages.includes(storage)) throw E.validation({ repository_storage: ['is not included in the list'] });
  if (storage !== undefined && storage !== p.storage) {
    const move = ctx.core.moves.create('project', p.id, storage);
    if ('errors' in move) throw E.validation(move.errors);
  }
  if (branch !== undefined) setDefaultBranch(w, p.id, branch);
  w.changeProject(p, {
    name: name ?? p.name,
    path: path ?? p.path,
    visibility: (visibility ?? p.visibility) as Visibility,
    lastActivityAt: Date.now(),
  });
  const description = strParam(ctx, 'description');
  if (description !== undefined) p.description = description;
  const topics = topicsParam(ctx);
  if (topics !== undefined) p.topics = topics;
  applySettings(w, p, settings);
  sendProject(ctx, 200, p);
}

function setArchived(archived: boolean) {
  return (ctx: Ctx, p: ProjectRec) => {
    requireAbility(ctx, p, 'archive_project');
    p.archived = archived;
    sendProject(ctx, 201, p);
  };
}

function deleteProject(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'remove_project');
  const w = ctx.world;
  if (boolParam(ctx, 'permanently_remove') === true) {
    if (!marked(w).has(p.id)) throw E.badRequest('Project must be marked for deletion first.');
    if (strParam(ctx, 'full_path') !== p.fullPath) {
      throw E.badRequest('`full_path` is incorrect. You must enter the complete path for the project.');
    }
    removeProject(w, p);
  } else if (p.nsKind === 'user') {
    // Personal projects are not kept for the adjourned period.
    removeProject(w, p);
  } else if (!marked(w).has(p.id)) {
    const suffix = `-deletion_scheduled-${p.id}`;
    w.changeProject(p, { name: `${p.name}${suffix}`, path: `${p.path}${suffix}` });
    p.archived = true;
    marked(w).set(p.id, Date.now());
  }
  sendJson(ctx, 202, { message: '202 Accepted' });
}

function removeProject(w: World, p: ProjectRec): void {
  marked(w).delete(p.id);
  w.removeProject(p);
}

function restoreProject(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'remove_project');
  const w = ctx.world;
  if (!marked(w).has(p.id)) throw E.badRequest('Project has not been marked for deletion');
  const name = p.name.replace(SCHEDULED_SUFFIX, '');
  const path = p.path.replace(SCHEDULED_SUFFIX, '');
  if (w.projectsByPath.has(`${w.nsFullPath(p)}/${path}`.toLowerCase())) {
    throw E.badRequest(`Project with path ${path} already exists in this namespace`);
  }
  marked(w).delete(p.id);
  w.changeProject(p, { name, path });
  p.archived = false;
  sendProject(ctx, 201, p);
}

function transferProject(ctx: Ctx, p: ProjectRec): void {
  requireAbility(ctx, p, 'change_namespace');
  const w = ctx.world;
  const target = strParam(ctx, 'namespace');
  if (target === undefined) throw E.missing('namespace');
  const ns = ask('findNamespace')(w, target);
  if (!ns) throw E.notFound('Namespace');
  const fail = (errors: string) => new ApiError(400, { message: `Failed to transfer project ${errors}` });
  if (ns.kind === p.nsKind && ns.owner === p.nsOwner) throw fail('{:namespace=>["Project is already in this namespace."]}');
  if (!ask('canUseNamespace')(ctx, ns))
    throw fail('{:namespace=>["You don\'t have permission to transfer this project to that namespace."]}');
  const nsPath = w.nsFullPath({ nsKind: ns.kind, nsOwner: ns.owner });
  const clash =
    w.projectsByPath.has(`${nsPath}/${p.path}`.toLowerCase()) ||
    w.projectNames.has(`${w.nsKey({ nsKind: ns.kind, nsOwner: ns.owner })}\n${p.name.toLowerCase()}`);
  if (clash) throw fail('{:base=>["Project with same name or path in target namespace already exists"]}');
  w.changeProject(p, { nsKind: ns.kind, nsOwner: ns.owner });
  sendProject(ctx, 200, p);
}

function forkProject(ctx: Ctx, p: ProjectRec): void {
  const w = ctx.world;
  const nsId = intParam(ctx, 'namespace_id');
  const target = nsId !== undefined ? String(nsId) : (strParam(ctx, 'namespace_path') ?? strParam(ctx, 'namespace'));
  if (target !== undefined) {
    const ns = ask('findNamespace')(w, target);
    if (!ns || !ask('canUseNamespace')(ctx, ns)) throw E.notFound('Target Namespace');
  }
  try {
    const fork = ask('createProject')(ctx, {
      name: strParam(ctx, 'name') ?? p.name,
      path: strParam(ctx, 'path') ?? p.path,
      namespace: target,
      description: strParam(ctx, 'description') ?? p.description,
      visibility: strParam(ctx, 'visibility') ?? p.visibility,
      repository: { forkOf: p.id },
    });
    fork.topics = p.topics;
    recordFork(ctx.world, p.id, fork.id);
    sendProject(ctx, 201, fork);
  } catch (error) {
    // The fork service reports a failed save as one sentence with 409.
    const message = error instanceof ApiError ? (error.body as { message?: unknown }).message : undefined;
    if (!message || typeof message !== 'object') throw error;
    const text = Object.entries(message as Record<string, string[]>).map(([k, v]) => `${k[0]!.toUpperCase()}${k.slice(1)} ${v.join(', ')}`);
    throw new ApiError(409, { message: text.join(', ') });
  }
}

export function mountProjectLifecycle({ project }: Mounts): void {
  offer('forkTotal', forkTotal);
  project.put('', { auth: 'user' }, updateProject);
  project.delete('', { auth: 'user' }, deleteProject);
  project.post('/archive', { auth: 'user' }, setArchived(true));
  project.post('/unarchive', { auth: 'user' }, setArchived(false));
  project.post('/restore', { auth: 'user' }, restoreProject);
  project.put('/transfer', { auth: 'user' }, transferProject);
  project.post('/fork', { auth: 'user' }, forkProject);
}
