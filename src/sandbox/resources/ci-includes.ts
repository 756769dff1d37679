// `include:` of a CI config, resolved as the service's lib/gitlab/ci/config/external/ does it for the
// linter: local files from the linted project's repository at the commit linted, `project:`/`file:`
// from another project the user can read the code of; the included hashes merged first, the including
// file over them. The first file that cannot be included is the one error, worded as the service's
// source words it (external/file/base.rb, local.rb, project.rb):
//   `Included file `<f>` does not have YAML extension!`, `Local file `<f>` does not exist!`,
//   `Local file `<f>` is empty!`, `Included file `<f>` does not have valid YAML syntax!`,
//   `Project `<p>` not found or access denied! Make sure any includes in the pipeline configuration are
//   correctly defined.`, `Project `<p>` reference `<r>` does not exist!`,
//   `Project `<p>` file `<f>` does not exist!`, `Project `<p>` file `<f>` is empty!`.
// Remote files and templates cannot be fetched here: after the location checks, a remote file is
// `Remote file `<url>` could not be fetched because of a socket error!` (remote.rb) and a template
// `Template file `<t>` is not a valid location!` or `Included file `<t>` is empty or does not exist!`
// (template.rb, base.rb), as if the service had no such template (README, "CI lint").
import { ask } from '../engine/ports.js';
import { can } from '../access.js';
import type { Ctx } from '../server/context.js';
import type { ProjectRec } from '../store/records.js';
import { type Config, ConfigError, deepMerge, isHash, loadYaml } from './ci-config.js';

/** Where a file's local includes are read: a project at a commit (none for an empty repository). */
export interface IncludeContext {
  project: ProjectRec;
  sha: string | null;
}

type Meta = Record<string, unknown>;

const YAML_EXTENSION = /.+\.(yml|yaml)$/i;

/** The config with its includes merged, and the metadata of every file included (`includes`). */
export function expandIncludes(ctx: Ctx, config: Config, at: IncludeContext): { config: Config; includes: Meta[] } {
  const includes: Meta[] = [];
  const seen = new Set<string>();
  const expand = (values: Config, context: IncludeContext): Config => {
    if (values.include === undefined || values.include === null) return values;
    let merged: Config = {};
    for (const entry of [values.include].flat()) {
      const file = readInclude(ctx, entry, context);
      const key = `${file.context.project.id}@${file.context.sha}:${file.location}`;
      if (seen.has(key)) continue;
      seen.add(key);
      includes.push(file.meta);
      merged = deepMerge(merged, expand(file.config, file.context));
    }
    const own = { ...values };
    delete own.include;
    return deepMerge(merged, own);
  };
  return { config: expand(config, at), includes };
}

interface Included {
  location: string;
  config: Config;
  context: IncludeContext;
  meta: Meta;
}

function readInclude(ctx: Ctx, entry: unknown, at: IncludeContext): Included {
  if (typeof entry === 'string') return /^https?:\/\//.test(entry) ? unreachable(entry) : readLocal(ctx, entry, at);
  if (isHash(entry) && entry.local !== undefined) return readLocal(ctx, entry.local, at);
  if (isHash(entry) && entry.project !== undefined) return readProjectFile(ctx, entry, at);
  if (isHash(entry) && entry.remote !== undefined) return unreachable(entry.remote);
  if (isHash(entry) && entry.template !== undefined) {
    const name = checkLocation(entry.template);
    if (!name.endsWith('.gitlab-ci.yml')) throw new ConfigError(`Template file \`${name}\` is not a valid location!`);
    throw new ConfigError(`Included file \`${name}\` is empty or does not exist!`);
  }
  throw new ConfigError(`Include \`${JSON.stringify(entry)}\` needs to match exactly one accessor!`);
}

/** The sandbox reaches no other host: a remote file fails as a lookup that finds no address does. */
function unreachable(url: unknown): never {
  const location = checkLocation(url);
  throw new ConfigError(`Remote file \`${location}\` could not be fetched because of a socket error!`);
}

function checkLocation(location: unknown): string {
  if (typeof location !== 'string') throw new ConfigError(`Included file \`${String(location)}\` needs to be a string`);
  const path = location.replace(/^\/+/, '');
  if (!YAML_EXTENSION.test(path.split('/').pop()!)) throw new ConfigError(`Included file \`${path}\` does not have YAML extension!`);
  return path;
}

/** A file of the repository at a commit, as the context reads it (undefined: no such file). */
function fileAt(ctx: Ctx, at: IncludeContext, path: string): string | undefined {
  if (at.sha === null) return undefined;
  const w = ctx.world;
  return ask('branchFiles')(w, at.project.id, w.repos.branchForSha(at.project.id, at.sha)).get(path)?.toString('utf8');
}

function parseIncluded(text: string, location: string): Config {
  try {
    return loadYaml(text);
  } catch (error) {
    if (error instanceof ConfigError && error.message === 'Invalid configuration format') {
      throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`);
    }
    throw new ConfigError(`\`${location}\`: ${(error as Error).message}`);
  }
}

function urls(ctx: Ctx, project: ProjectRec, sha: string, path: string): Meta {
  const web = `${ctx.world.base()}/${project.fullPath}`;
  return { blob: `${web}/-/blob/${sha}/${path}`, raw: `${web}/-/raw/${sha}/${path}` };
}

function readLocal(ctx: Ctx, location: unknown, at: IncludeContext): Included {
  const path = checkLocation(location);
  const text = fileAt(ctx, at, path);
  if (text === undefined) throw new ConfigError(`Local file \`${path}\` does not exist!`);
  if (text.trim() === '') throw new ConfigError(`Local file \`${path}\` is empty!`);
  const config = parseIncluded(text, path);
  const meta = {
    context_project: at.project.fullPath,
    context_sha: at.sha,
    type: 'local',
    location: path,
    ...urls(ctx, at.project, at.sha!, path),
    extra: {},
  };
  return { location: path, config, context: at, meta };
}

function readProjectFile(ctx: Ctx, entry: Config, at: IncludeContext): Included {
  const name = String([entry.project].flat()[0]).toLowerCase();
  const ref = typeof entry.ref === 'string' ? entry.ref : 'HEAD';
  const path = checkLocation([entry.file].flat()[0]);
  const w = ctx.world;
  const project = w.findProjectByPath(name)?.project;
  if (!project || !can(w, ctx.user, project, 'read_code')) {
    throw new ConfigError(
      `Project \`${name}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`,
    );
  }
  const sha = w.repos.resolveRef(project.id, ref);
  if (!sha) throw new ConfigError(`Project \`${name}\` reference \`${ref}\` does not exist!`);
  const context = { project, sha };
  const text = fileAt(ctx, context, path);
  if (text === undefined) throw new ConfigError(`Project \`${name}\` file \`${path}\` does not exist!`);
  if (text.trim() === '') throw new ConfigError(`Project \`${name}\` file \`${path}\` is empty!`);
  const meta = {
    context_project: at.project.fullPath,
    context_sha: at.sha,
    type: 'file',
    location: path,
    ...urls(ctx, project, sha, path),
    extra: { project: name, ref },
  };
  return { location: path, config: parseIncluded(text, path), context, meta };
}
