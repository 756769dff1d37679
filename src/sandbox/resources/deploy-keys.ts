// Deploy keys (lib/api/deploy_keys.rb, services/projects/enable_deploy_key_service.rb, entities/deploy_key.rb,
// deploy_keys_project.rb, project_identity.rb): a project's keys need the maintainer role; the instance's list
// and create an administrator. Adding a key the project has answers that link; one the caller may use
// elsewhere (public, or in a project they maintain) is linked; else a new key, whose validation errors are
// named under `deploy_key.`. `enable` links a usable key (201, the key) or `404 Deploy key Not Found`;
// `update` takes `title` (the key's owner or an administrator only) and `can_push`; `delete` unlinks
// (`404 Deploy key Not Found`), and a key no project uses any more and not public goes (README, "SSH,
// deploy and GPG keys").
import { can, projectRole, MAINTAINER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, intSeg, strParam } from '../server/params.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import { iso } from '../util/time.js';
import { type DeployLink, deployKeyJson, type KeyRec, keyStore, newSshKey, readKeyInput } from './key-store.js';
import type { Mounts } from './mounts.js';

function requireMaintainer(ctx: Ctx, p: ProjectRec): void {
  if (!can(ctx.world, ctx.user, p, 'admin_project')) throw E.forbidden();
}

const linksOf = (ctx: Ctx, p: ProjectRec) => keyStore(ctx.world).links.filter((l) => l.projectId === p.id);
const keyOf = (ctx: Ctx, id: number) => keyStore(ctx.world).keys.find((k) => k.id === id && k.kind === 'deploy');

function linkJson(ctx: Ctx, l: DeployLink): Record<string, unknown> {
  return { ...deployKeyJson(ctx, keyOf(ctx, l.keyId)!), can_push: l.canPush };
}

/** Deploy keys the caller may enable: public ones, and those of projects they maintain (all, for an administrator). */
function usable(ctx: Ctx, k: KeyRec): boolean {
  if (k.kind !== 'deploy') return false;
  if (k.isPublic || ctx.user!.isAdmin) return true;
  const w = ctx.world;
  return keyStore(w).links.some((l) => l.keyId === k.id && projectRole(w, ctx.user, w.projects.get(l.projectId)!) >= MAINTAINER);
}

function identity(p: ProjectRec): Record<string, unknown> {
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: p.fullPath.split('/').join(' / '),
    path: p.path,
    path_with_namespace: p.fullPath,
    created_at: iso(p.createdAt),
  };
}

function projectsOf(ctx: Ctx, k: KeyRec, canPush: boolean): Record<string, unknown>[] {
  const w = ctx.world;
  return keyStore(w)
    .links.filter((l) => l.keyId === k.id && l.canPush === canPush && w.projects.get(l.projectId))
    .map((l) => identity(w.projects.get(l.projectId)!));
}

export function mountDeployKeys({ root, project }: Mounts): void {
  root.get('/deploy_keys', { auth: 'admin' }, (ctx) => {
    const onlyPublic = boolParam(ctx, 'public') ?? false;
    const keys = keyStore(ctx.world).keys.filter((k) => k.kind === 'deploy' && (!onlyPublic || k.isPublic));
    sendList(
      ctx,
      pageOf(ctx, keys).map((k) => ({
        ...deployKeyJson(ctx, k),
        projects_with_write_access: projectsOf(ctx, k, true),
        projects_with_readonly_access: projectsOf(ctx, k, false),
      })),
    );
  });
  root.post('/deploy_keys', { auth: 'admin' }, (ctx) => {
    const rec = { ...newSshKey(ctx, 'deploy', ctx.user!, readKeyInput(ctx)), isPublic: true };
    keyStore(ctx.world).keys.push(rec);
    sendJson(ctx, 201, deployKeyJson(ctx, rec));
  });

  project.get('/deploy_keys', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    sendList(
      ctx,
      pageOf(ctx, linksOf(ctx, p)).map((l) => linkJson(ctx, l)),
    );
  });
  project.get('/deploy_keys/:key_id', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    const id = intSeg(ctx, 'key_id');
    const link = linksOf(ctx, p).find((l) => l.keyId === id);
    if (!link) throw E.findNotFound();
    sendJson(ctx, 200, linkJson(ctx, link));
  });
  project.post('/deploy_keys', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    const input = readKeyInput(ctx);
    const canPush = boolParam(ctx, 'can_push') ?? false;
    const text = input.key.trim();
    const store = keyStore(ctx.world);
    const linked = linksOf(ctx, p).find((l) => keyOf(ctx, l.keyId)?.text === text);
    if (linked) return sendJson(ctx, 201, linkJson(ctx, linked));
    const existing = store.keys.find((k) => k.text === text && usable(ctx, k));
    const key = existing ?? newSshKey(ctx, 'deploy', ctx.user!, input, 'deploy_key.');
    if (!existing) store.keys.push(key);
    const link = { projectId: p.id, keyId: key.id, canPush };
    store.links.push(link);
    sendJson(ctx, 201, linkJson(ctx, link));
  });
  project.put('/deploy_keys/:key_id', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    const id = intSeg(ctx, 'key_id');
    const title = strParam(ctx, 'title');
    const canPush = boolParam(ctx, 'can_push');
    if (title === undefined && canPush === undefined) throw E.atLeastOne('title', 'can_push');
    const link = linksOf(ctx, p).find((l) => l.keyId === id);
    if (!link) throw E.findNotFound();
    const key = keyOf(ctx, id)!;
    if (canPush !== undefined) link.canPush = canPush;
    // Only the key's owner or an administrator may rename it; anyone else's title is left as it was.
    if (title !== undefined && (ctx.user!.isAdmin || key.userId === ctx.user!.id)) {
      if (!title.trim()) throw E.validation({ 'deploy_key.title': ["can't be blank"] });
      key.title = title;
    }
    sendJson(ctx, 200, linkJson(ctx, link));
  });
  project.post('/deploy_keys/:key_id/enable', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    const id = intSeg(ctx, 'key_id');
    const key = keyOf(ctx, id);
    if (!key || !usable(ctx, key)) throw E.notFound('Deploy key');
    const store = keyStore(ctx.world);
    if (!linksOf(ctx, p).some((l) => l.keyId === id)) store.links.push({ projectId: p.id, keyId: id, canPush: false });
    sendJson(ctx, 201, deployKeyJson(ctx, key));
  });
  project.delete('/deploy_keys/:key_id', { auth: 'user' }, (ctx, p) => {
    requireMaintainer(ctx, p);
    const id = intSeg(ctx, 'key_id');
    const store = keyStore(ctx.world);
    const at = store.links.findIndex((l) => l.projectId === p.id && l.keyId === id);
    if (at < 0) throw E.notFound('Deploy key');
    store.links.splice(at, 1);
    const key = keyOf(ctx, id)!;
    if (!key.isPublic && !store.links.some((l) => l.keyId === id)) store.keys.splice(store.keys.indexOf(key), 1);
    sendJson(ctx, 204, null);
  });
}
