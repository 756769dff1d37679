// The project entities: ProjectIdentity, BasicProjectDetails (anonymous
// callers and `simple=true`), and the full project with `permissions` for
// authenticated callers (reference §6). Rendered from cached namespace
// fragments so a page of 100 projects renders in well under a millisecond.
import { can, canReadProject, permissionsJson } from '../access.js';
import { ask } from '../engine/ports.js';
import type { ProjectRec, UserRec } from '../store/records.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { importState } from '../resources/import-state.js';
import { namespaceBasic } from './namespace.js';
import { defaultBranch } from '../store/default-branches.js';
import { deletionMark } from '../resources/deletion-marks.js';
import { forkCount, forkedFrom } from '../resources/forks.js';
import { projectAvatarUrl, settingsJsonText } from '../resources/project-settings.js';
import { userBasic } from './user.js';

export function projectIdentity(w: World, p: ProjectRec): Record<string, unknown> {
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${w.nsName(p)} / ${p.name}`,
    path: p.path,
    path_with_namespace: p.fullPath,
    created_at: iso(p.createdAt),
  };
}

interface NsFragment {
  ns: string;
  nsName: string;
  owner: string | null;
  base: string;
}

const fragments = storeFor(() => new Map<string, NsFragment>());

function nsFragment(w: World, p: ProjectRec): NsFragment {
  const cache = fragments(w);
  const key = w.nsKey(p);
  const base = w.base();
  let f = cache.get(key);
  if (!f || f.base !== base) {
    f = {
      ns: JSON.stringify(namespaceBasic(w, p.nsKind, p.nsOwner)),
      nsName: w.nsName(p),
      owner: p.nsKind === 'user' ? JSON.stringify(userBasic(w, w.users.get(p.nsOwner)!)) : null,
      base,
    };
    cache.set(key, f);
  }
  return f;
}

interface ProjectView {
  viewer: UserRec | null;
  /** BasicProjectDetails instead of the full entity */
  basic: boolean;
  statistics: boolean;
}

/** The statistics block; figures derived from the seed. */
function statisticsJson(w: World, p: ProjectRec): string {
  const h = w.h(96, p.id);
  const repo = 50_000 + (h % 5_000_000);
  const artifacts = (h >>> 8) % 2_000_000;
  return (
    `{"commit_count":12,"storage_size":${repo + artifacts},"repository_size":${repo},"wiki_size":0,"lfs_objects_size":0,` +
    `"job_artifacts_size":${artifacts},"pipeline_artifacts_size":0,"packages_size":0,"snippets_size":0,"uploads_size":0,"container_registry_size":0}`
  );
}

/** `forked_from_project` (BasicProjectDetails) of a fork whose parent the viewer may read. */
function forkedFromText(w: World, p: ProjectRec, viewer: UserRec | null): string {
  const parentId = forkedFrom(w, p.id);
  const parent = parentId === undefined ? null : w.projects.get(parentId);
  if (!parent || !canReadProject(w, viewer, parent)) return '';
  return `"forked_from_project":${projectJsonText(w, parent, { viewer, basic: true, statistics: false })},`;
}

function hasReadme(w: World, p: ProjectRec, branch: string): boolean {
  return w.repos.isSynthetic(p.id) || (w.repos.hasBranch(p.id, branch) && ask('branchFiles')(w, p.id, branch).has('README.md'));
}

export function projectJsonText(w: World, p: ProjectRec, view: ProjectView): string {
  const { viewer } = view;
  const base = w.base();
  const f = nsFragment(w, p);
  const js = JSON.stringify;
  const fp = js(p.fullPath).slice(1, -1);
  const web = `${base}/${fp}`;
  const api = `${base}/api/v4/projects/${p.id}`;
  const host = base.replace(/^https?:\/\//, '').replace(/:\d+$/, '');
  const topics = js(p.topics);
  const branch = defaultBranch(w, p.id);
  const head =
    `{"id":${p.id},"description":${js(p.description)},"name":${js(p.name)},"name_with_namespace":${js(`${f.nsName} / ${p.name}`)},` +
    `"path":${js(p.path)},"path_with_namespace":"${fp}","created_at":"${iso(p.createdAt)}","default_branch":${js(branch)},"tag_list":${topics},"topics":${topics},` +
    `"ssh_url_to_repo":"git@${host}:${fp}.git","http_url_to_repo":"${web}.git","web_url":"${web}","readme_url":${js(hasReadme(w, p, branch) ? `${base}/${p.fullPath}/-/blob/${branch}/README.md` : null)},` +
    `"forks_count":${forkCount(w, p.id)},"avatar_url":${js(projectAvatarUrl(w, p))},"star_count":${p.starCount},"last_activity_at":"${iso(p.lastActivityAt)}","namespace":${f.ns}`;
  const storage = viewer?.isAdmin ? `,"repository_storage":${js(p.storage)}` : '';
  const stats = view.statistics && can(w, viewer, p, 'read_build') && viewer ? `,"statistics":${statisticsJson(w, p)}` : '';
  if (view.basic) return `${head}${storage}${stats}}`;
  const shares = ask('sharesOf')(w, p.id)
    .map((s) => {
      const g = w.groups.get(s.groupId)!;
      return `{"group_id":${g.id},"group_name":${js(g.name)},"group_full_path":${js(g.fullPath)},"group_access_level":${s.access},"expires_at":${js(s.expiresAt)}}`;
    })
    .join(',');
  const mark = deletionMark(w, p.id);
  return (
    `${head},` +
    (f.owner ? `"owner":${f.owner},` : '') +
    `"visibility":"${p.visibility}","archived":${p.archived},"empty_repo":${w.repos.isEmpty(p.id)},${settingsJsonText(w, p)},` +
    `"import_status":${js(importState(w, p).status)},"open_issues_count":${ask('openIssueCount')(w, p.id)},` +
    `"marked_for_deletion_at":${js(mark?.at ?? null)},"marked_for_deletion_on":${js(mark?.on ?? null)},` +
    `"creator_id":${p.creatorId},${forkedFromText(w, p, viewer)}"shared_with_groups":[${shares}]${storage}${stats},` +
    `"_links":{"self":"${api}","issues":"${api}/issues","merge_requests":"${api}/merge_requests","repo_branches":"${api}/repository/branches",` +
    `"labels":"${api}/labels","events":"${api}/events","members":"${api}/members","cluster_agents":"${api}/cluster_agents"}` +
    (viewer ? `,"permissions":${js(permissionsJson(w, viewer, p))}` : '') +
    '}'
  );
}
