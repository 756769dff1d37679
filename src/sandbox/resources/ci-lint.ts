// `POST|GET /projects/:id/ci/lint` (lib/api/lint.rb, lib/gitlab/ci/lint.rb, entities/ci/lint/result.rb).
// POST lints `content` (required) and needs `create_pipeline` (developer; 403 otherwise); GET lints the
// project's `.gitlab-ci.yml` at `content_ref` or `sha` (mutually exclusive; default: the head of the
// default branch) and needs `read_code`, answering `404 Repository Not Found` for an empty repository and
// `404 Commit Not Found` for a ref it cannot find. Both answer 200 with `valid`, `errors`, `warnings`,
// `merged_yaml`, `includes`, and `jobs` when `include_jobs`. A static check lists each job as
// `yaml_processor_result_to_jobs` does; `dry_run` simulates creating a pipeline on `ref` (`dry_run_ref`
// for GET), which reports only the first error and lists jobs without `only`, `except` and `needs`,
// and `Reference not found` for a ref the repository lacks. The checks and their texts: ci-config.ts.
import { ask } from '../engine/ports.js';
import { Document } from 'yaml';
import { ApiError, E } from '../server/errors.js';
import type { Ctx } from '../server/context.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import {
  applyExtends,
  type Config,
  ConfigError,
  configWarnings,
  entryErrors,
  isHash,
  jobsByStage,
  loadYaml,
  logicalError,
  needsOf,
} from './ci-config.js';
import { expandIncludes, type IncludeContext } from './ci-includes.js';
import { defaultBranch } from '../store/default-branches.js';
import { requireAbility } from './guards.js';
import type { Mounts } from './mounts.js';

interface Lint {
  errors: string[];
  warnings: string[];
  config: Config | null;
  includes: unknown[] | null;
}

function lint(ctx: Ctx, content: string | undefined, at: IncludeContext): Lint {
  if (content === undefined || content.trim() === '') {
    return { errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], config: null, includes: null };
  }
  let config: Config;
  let includes: unknown[];
  try {
    ({ config, includes } = expandIncludes(ctx, loadYaml(content), at));
    config = applyExtends(config);
  } catch (error) {
    if (error instanceof ConfigError) return { errors: [error.message], warnings: [], config: null, includes: null };
    throw error;
  }
  const entries = entryErrors(config);
  const warnings = configWarnings(config);
  if (entries.length > 0) return { errors: entries, warnings, config, includes };
  const logical = logicalError(config);
  return { errors: logical ? [logical] : [], warnings, config, includes };
}

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : [value].flat(Infinity));

/** `only`/`except` as the service normalizes them: `{refs: […]}` (a job without rules gets the default `only`). */
function policy(value: unknown, fallback: unknown): unknown {
  if (value === undefined || value === null) return fallback;
  return isHash(value) ? value : { refs: list(value) };
}

function jobJson(name: string, job: Config, stage: string, root: Config, dryRun: boolean): Record<string, unknown> {
  const defaults = isHash(root.default) ? root.default : {};
  const inherited = (key: string) => list(job[key] ?? defaults[key] ?? root[key]);
  const when = typeof job.when === 'string' ? job.when : 'on_success';
  const environment = isHash(job.environment) ? (job.environment.name ?? null) : (job.environment ?? null);
  const usesRules = job.rules !== undefined || (isHash(root.workflow) && root.workflow.rules !== undefined);
  const out: Record<string, unknown> = {
    name,
    stage,
    before_script: inherited('before_script'),
    script: list(job.script),
    after_script: inherited('after_script'),
    tag_list: list(job.tags ?? defaults.tags),
  };
  if (!dryRun) {
    out.only = policy(job.only, usesRules ? null : { refs: ['branches', 'tags'] });
    out.except = policy(job.except, null);
  }
  out.environment = environment;
  out.when = when;
  out.allow_failure = typeof job.allow_failure === 'boolean' ? job.allow_failure : when === 'manual';
  if (!dryRun) out.needs = needsOf(job)?.map((n) => ({ name: n.name, artifacts: true, optional: n.optional })) ?? null;
  return out;
}

/** Ruby's `to_yaml` of the merged config: a `---` document, sequences not indented under their key. */
function mergedYaml(config: Config): string {
  return `---\n${new Document(config, { aliasDuplicateObjects: false }).toString({ indentSeq: false, lineWidth: 0 })}`;
}

function answer(ctx: Ctx, result: Lint, dryRun: boolean): void {
  const errors = dryRun ? result.errors.slice(0, 1) : result.errors;
  const body: Record<string, unknown> = {
    valid: errors.length === 0,
    errors,
    warnings: result.warnings,
    merged_yaml: result.config ? mergedYaml(result.config) : null,
    includes: result.includes,
  };
  if (boolParam(ctx, 'include_jobs')) {
    const root = result.config;
    body.jobs = errors.length === 0 && root ? jobsByStage(root).map(([name, job, stage]) => jobJson(name, job, stage, root, dryRun)) : [];
  }
  sendJson(ctx, 200, body);
}

/** A dry run stops at a ref that is not a branch or tag, before reading the config. */
function withDryRunRef(ctx: Ctx, p: ProjectRec, result: Lint, ref: string): Lint {
  const repos = ctx.world.repos;
  if (repos.hasBranch(p.id, ref) || repos.tags(p.id).some((t) => t.name === ref)) return result;
  return { errors: ['Reference not found'], warnings: [], config: null, includes: null };
}

function exclusive(ctx: Ctx, a: string, b: string): void {
  if (strParam(ctx, a) !== undefined && strParam(ctx, b) !== undefined)
    throw new ApiError(400, { error: `${a}, ${b} are mutually exclusive` });
}

export function mountCiLint({ project }: Mounts): void {
  project.post('/ci/lint', { auth: 'user' }, (ctx, p) => {
    requireAbility(ctx, p, 'create_pipeline');
    const content = strParam(ctx, 'content');
    if (content === undefined) throw E.missing('content');
    const w = ctx.world;
    const sha = w.repos.isEmpty(p.id) ? null : w.repos.resolveRef(p.id, defaultBranch(w, p.id));
    const dryRun = boolParam(ctx, 'dry_run') ?? false;
    let result = lint(ctx, content, { project: p, sha });
    if (dryRun) result = withDryRunRef(ctx, p, result, strParam(ctx, 'ref') ?? defaultBranch(w, p.id));
    answer(ctx, result, dryRun);
  });
  project.get('/ci/lint', { auth: 'public' }, (ctx, p) => {
    requireAbility(ctx, p, 'read_code');
    const w = ctx.world;
    if (w.repos.isEmpty(p.id)) throw E.notFound('Repository');
    exclusive(ctx, 'sha', 'content_ref');
    exclusive(ctx, 'ref', 'dry_run_ref');
    const contentRef = strParam(ctx, 'content_ref') ?? strParam(ctx, 'sha') ?? defaultBranch(w, p.id);
    const sha = w.repos.resolveRef(p.id, contentRef);
    if (!sha) throw E.notFound('Commit');
    const content = ask('branchFiles')(w, p.id, w.repos.branchForSha(p.id, sha)).get('.gitlab-ci.yml')?.toString('utf8');
    const dryRun = boolParam(ctx, 'dry_run') ?? false;
    let result = lint(ctx, content, { project: p, sha });
    if (dryRun) result = withDryRunRef(ctx, p, result, strParam(ctx, 'dry_run_ref') ?? strParam(ctx, 'ref') ?? defaultBranch(w, p.id));
    answer(ctx, result, dryRun);
  });
}
