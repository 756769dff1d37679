// The project settings `PUT /projects/:id` takes besides name, path, description, visibility, default
// branch and topics (reference endpoints §8: "at-least-one over a long list"; the list and the types are
// `lib/api/helpers/projects_helpers.rb`, `update_params_at_least_one_of` and `optional_project_params_ce`).
// The sandbox keeps every value it accepts and shows it in the project entity; only the features it
// models act on them (issues and merge requests on/off, the storage through a move).
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { boolParam, enumParam, intParam, listParam, strParam } from '../server/params.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';

const LEVELS = ['disabled', 'private', 'enabled'] as const;
const PUBLIC_LEVELS = ['disabled', 'private', 'enabled', 'public'] as const;

type Kind = 'bool' | 'string' | 'int' | 'list' | readonly string[];

/** Settings shown under their own name, with a new project's value. */
const SETTINGS: Record<string, { kind: Kind; value: unknown }> = {
  allow_merge_on_skipped_pipeline: { kind: 'bool', value: false },
  auto_cancel_pending_pipelines: { kind: ['disabled', 'enabled'], value: 'enabled' },
  auto_devops_deploy_strategy: { kind: ['continuous', 'manual', 'timed_incremental'], value: 'continuous' },
  auto_devops_enabled: { kind: 'bool', value: false },
  autoclose_referenced_issues: { kind: 'bool', value: true },
  build_git_strategy: { kind: ['fetch', 'clone'], value: 'fetch' },
  build_timeout: { kind: 'int', value: 3600 },
  ci_allow_fork_pipelines_to_run_in_parent_project: { kind: 'bool', value: true },
  ci_config_path: { kind: 'string', value: null },
  ci_default_git_depth: { kind: 'int', value: 20 },
  ci_delete_pipelines_in_seconds: { kind: 'int', value: null },
  ci_forward_deployment_enabled: { kind: 'bool', value: true },
  ci_forward_deployment_rollback_allowed: { kind: 'bool', value: true },
  ci_id_token_sub_claim_components: { kind: 'list', value: ['project_path', 'ref_type', 'ref'] },
  ci_pipeline_variables_minimum_override_role: { kind: ['no_one_allowed', 'developer', 'maintainer', 'owner'], value: 'developer' },
  ci_push_repository_for_job_token_allowed: { kind: 'bool', value: false },
  ci_separated_caches: { kind: 'bool', value: true },
  emails_enabled: { kind: 'bool', value: true },
  enforce_auth_checks_on_uploads: { kind: 'bool', value: true },
  group_runners_enabled: { kind: 'bool', value: true },
  issue_branch_template: { kind: 'string', value: null },
  keep_latest_artifact: { kind: 'bool', value: true },
  lfs_enabled: { kind: 'bool', value: true },
  max_artifacts_size: { kind: 'int', value: null },
  merge_commit_template: { kind: 'string', value: null },
  merge_method: { kind: ['ff', 'rebase_merge', 'merge'], value: 'merge' },
  merge_pipelines_enabled: { kind: 'bool', value: false },
  merge_request_title_regex: { kind: 'string', value: null },
  merge_request_title_regex_description: { kind: 'string', value: null },
  merge_requests_template: { kind: 'string', value: null },
  merge_trains_enabled: { kind: 'bool', value: false },
  mr_default_target_self: { kind: 'bool', value: false },
  only_allow_merge_if_all_discussions_are_resolved: { kind: 'bool', value: false },
  only_allow_merge_if_pipeline_succeeds: { kind: 'bool', value: false },
  printing_merge_request_link_enabled: { kind: 'bool', value: true },
  public_jobs: { kind: 'bool', value: true },
  remove_source_branch_after_merge: { kind: 'bool', value: true },
  request_access_enabled: { kind: 'bool', value: true },
  resolve_outdated_diff_discussions: { kind: 'bool', value: false },
  resource_group_default_process_mode: { kind: ['unordered', 'oldest_first', 'newest_first', 'newest_ready_first'], value: 'unordered' },
  restrict_user_defined_variables: { kind: 'bool', value: false },
  service_desk_enabled: { kind: 'bool', value: false },
  shared_runners_enabled: { kind: 'bool', value: true },
  show_diff_preview_in_email: { kind: 'bool', value: true },
  squash_commit_template: { kind: 'string', value: null },
  squash_option: { kind: ['never', 'always', 'default_on', 'default_off'], value: 'default_off' },
  suggestion_commit_message: { kind: 'string', value: null },
  warn_about_potentially_unwanted_characters: { kind: 'bool', value: true },
};

/** Features with an access level; those with a legacy `<name>_enabled` flag name it. */
const FEATURES: Record<string, { levels: readonly string[]; flag?: string }> = {
  analytics: { levels: LEVELS },
  builds: { levels: LEVELS, flag: 'jobs_enabled' },
  container_registry: { levels: LEVELS, flag: 'container_registry_enabled' },
  environments: { levels: LEVELS },
  feature_flags: { levels: LEVELS },
  forking: { levels: LEVELS },
  infrastructure: { levels: LEVELS },
  issues: { levels: LEVELS, flag: 'issues_enabled' },
  merge_requests: { levels: LEVELS, flag: 'merge_requests_enabled' },
  model_experiments: { levels: LEVELS },
  model_registry: { levels: LEVELS },
  monitor: { levels: LEVELS },
  package_registry: { levels: PUBLIC_LEVELS, flag: 'packages_enabled' },
  pages: { levels: PUBLIC_LEVELS },
  releases: { levels: LEVELS },
  repository: { levels: LEVELS },
  security_and_compliance: { levels: LEVELS },
  snippets: { levels: LEVELS, flag: 'snippets_enabled' },
  wiki: { levels: LEVELS, flag: 'wiki_enabled' },
};

const EXPIRATION_POLICY = ['cadence', 'keep_n', 'older_than', 'name_regex', 'name_regex_keep', 'enabled'] as const;

/** Every attribute `PUT /projects/:id` takes, in the order of the service's at-least-one message. */
export const UPDATE_ATTRIBUTES: readonly string[] = `
allow_merge_on_skipped_pipeline analytics_access_level autoclose_referenced_issues auto_devops_enabled auto_devops_deploy_strategy auto_cancel_pending_pipelines build_git_strategy build_timeout
builds_access_level ci_config_path ci_default_git_depth ci_allow_fork_pipelines_to_run_in_parent_project ci_id_token_sub_claim_components ci_forward_deployment_enabled ci_forward_deployment_rollback_allowed ci_separated_caches
container_registry_access_level container_expiration_policy_attributes default_branch description emails_disabled emails_enabled forking_access_level issues_access_level
lfs_enabled merge_pipelines_enabled merge_requests_access_level merge_requests_template merge_trains_enabled merge_method merge_request_title_regex merge_request_title_regex_description
name only_allow_merge_if_all_discussions_are_resolved only_allow_merge_if_pipeline_succeeds package_registry_access_level pages_access_level path printing_merge_request_link_enabled public_builds
public_jobs remove_source_branch_after_merge repository_access_level request_access_enabled resolve_outdated_diff_discussions restrict_user_defined_variables show_diff_preview_in_email security_and_compliance_access_level
squash_option shared_runners_enabled group_runners_enabled resource_group_default_process_mode snippets_access_level tag_list topics visibility
wiki_access_level avatar suggestion_commit_message merge_commit_template squash_commit_template issue_branch_template repository_storage packages_enabled
service_desk_enabled keep_latest_artifact mr_default_target_self enforce_auth_checks_on_uploads releases_access_level environments_access_level feature_flags_access_level infrastructure_access_level
monitor_access_level model_experiments_access_level model_registry_access_level warn_about_potentially_unwanted_characters ci_pipeline_variables_minimum_override_role ci_push_repository_for_job_token_allowed ci_delete_pipelines_in_seconds max_artifacts_size
issues_enabled jobs_enabled merge_requests_enabled wiki_enabled snippets_enabled container_registry_enabled`
  .trim()
  .split(/\s+/);

interface Written {
  settings: Record<string, unknown>;
  levels: Record<string, string>;
  policy?: Record<string, unknown>;
  avatar?: string;
}

const written = storeFor(() => new Map<number, Written>());

/** The settings a request gives, checked as Grape coerces them; nothing is applied. */
export function readSettings(ctx: Ctx): Written {
  const out: Written = { settings: {}, levels: {} };
  for (const [name, { kind }] of Object.entries(SETTINGS)) {
    const v = settingParam(ctx, name, kind);
    if (v !== undefined) out.settings[name] = v;
  }
  const alias = (from: string, to: string, invert = false) => {
    const v = boolParam(ctx, from);
    if (v !== undefined && out.settings[to] === undefined) out.settings[to] = invert ? !v : v;
  };
  alias('public_builds', 'public_jobs');
  alias('emails_disabled', 'emails_enabled', true);
  for (const [feature, { levels, flag }] of Object.entries(FEATURES)) {
    const level = enumParam(ctx, `${feature}_access_level`, levels);
    const on = flag === undefined ? undefined : boolParam(ctx, flag);
    if (level !== undefined) out.levels[feature] = level;
    else if (on !== undefined) out.levels[feature] = on ? 'enabled' : 'disabled';
  }
  const policy = ctx.params.container_expiration_policy_attributes;
  if (policy !== undefined) {
    if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) throw E.invalid('container_expiration_policy_attributes');
    out.policy = Object.fromEntries(
      EXPIRATION_POLICY.flatMap((k) =>
        (policy as Record<string, unknown>)[k] === undefined ? [] : [[k, policyValue(k, (policy as Record<string, unknown>)[k])]],
      ),
    );
  }
  const avatar = ctx.files.avatar;
  if (avatar) out.avatar = avatar.filename;
  else if (ctx.params.avatar !== undefined) throw E.invalid('avatar');
  return out;
}

function policyValue(key: string, v: unknown): unknown {
  const name = `container_expiration_policy_attributes[${key}]`;
  if (key === 'enabled') {
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw E.invalid(name);
  }
  if (key === 'keep_n') {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
    throw E.invalid(name);
  }
  if (typeof v !== 'string') throw E.invalid(name);
  return v;
}

function settingParam(ctx: Ctx, name: string, kind: Kind): unknown {
  if (kind === 'bool') return boolParam(ctx, name);
  if (kind === 'int') return intParam(ctx, name);
  if (kind === 'list') return listParam(ctx, name);
  if (kind === 'string') return strParam(ctx, name);
  return enumParam(ctx, name, kind);
}

/** Keeps what `readSettings` found; the issues and merge request flags are the project record's own. */
export function applySettings(w: World, p: ProjectRec, s: Written): void {
  const map = written(w);
  const cur = map.get(p.id) ?? { settings: {}, levels: {} };
  Object.assign(cur.settings, s.settings);
  Object.assign(cur.levels, s.levels);
  if (s.policy) cur.policy = { ...cur.policy, ...s.policy };
  if (s.avatar !== undefined) cur.avatar = s.avatar;
  if (s.levels.issues !== undefined) p.issuesEnabled = s.levels.issues !== 'disabled';
  if (s.levels.merge_requests !== undefined) p.mergeRequestsEnabled = s.levels.merge_requests !== 'disabled';
  map.set(p.id, cur);
}

export function projectAvatarUrl(w: World, p: ProjectRec): string | null {
  const file = written(w).get(p.id)?.avatar;
  return file === undefined ? null : `${w.base()}/uploads/-/system/project/avatar/${p.id}/${encodeURIComponent(file)}`;
}

function level(p: ProjectRec, cur: Written | undefined, feature: string): string {
  if (feature === 'issues' && !p.issuesEnabled) return 'disabled';
  if (feature === 'merge_requests' && !p.mergeRequestsEnabled) return 'disabled';
  const set = cur?.levels[feature];
  if (feature === 'issues' || feature === 'merge_requests') return set === 'private' ? set : 'enabled';
  return set ?? 'enabled';
}

/** The settings as members of the project entity: `"k":v,…` with no braces. */
export function settingsJsonText(w: World, p: ProjectRec): string {
  const cur = written(w).get(p.id);
  if (cur) return renderSettings(p, cur);
  // Untouched projects differ only in the two flags: a page of them renders from four texts.
  const key = `${p.issuesEnabled}:${p.mergeRequestsEnabled}`;
  let text = DEFAULT_TEXTS.get(key);
  if (text === undefined) {
    text = renderSettings(p, undefined);
    DEFAULT_TEXTS.set(key, text);
  }
  return text;
}

const DEFAULT_TEXTS = new Map<string, string>();

function renderSettings(p: ProjectRec, cur: Written | undefined): string {
  const out: Record<string, unknown> = {};
  for (const [feature, { flag }] of Object.entries(FEATURES)) {
    const l = level(p, cur, feature);
    out[`${feature}_access_level`] = l;
    if (flag) out[flag] = l !== 'disabled';
  }
  for (const [name, { value }] of Object.entries(SETTINGS)) out[name] = cur?.settings[name] ?? value;
  out.emails_disabled = !out.emails_enabled;
  out.container_expiration_policy = {
    cadence: '1d',
    enabled: false,
    keep_n: 10,
    older_than: '90d',
    name_regex: '.*',
    name_regex_keep: null,
    next_run_at: null,
    ...cur?.policy,
  };
  return JSON.stringify(out).slice(1, -1);
}
