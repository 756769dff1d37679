// A `.gitlab-ci.yml` read the way the service's linter reads it, for `…/ci/lint` (ci-lint.ts).
// Message texts as the service's source words them:
// - lib/gitlab/ci/yaml_processor.rb: `Please provide content of .gitlab-ci.yml`; the first logical
//   error only: `<job> job: chosen stage <s> does not exist; available stages are <list>`,
//   `<job> job: undefined dependency: <d>`, `<job> job: undefined need: <n>`,
//   `<job> job: need <n> is not defined in current or prior stages` (and `dependency …`),
//   `<job> has the following needs duplicated: <n>.`
// - lib/gitlab/config/loader/yaml.rb: `Invalid configuration format` (not a mapping); a syntax error is
//   the YAML parser's own message (Psych's; this one words the problem its own way, README).
// - lib/gitlab/config/entry/validator.rb: every entry error is `<location> <attribute> <message>`,
//   lowercased; lib/gitlab/ci/config/entry/jobs.rb: `jobs <name> config should implement the script:,
//   run:, or trigger: keyword`, `jobs config should contain at least one visible job` (a top-level key
//   the root does not reserve is a job, so an unknown top-level key ends up here).
// - lib/gitlab/config/entry/validators.rb with entry/job.rb and entry/processable.rb:
//   `jobs:<name> config contains unknown keys: <keys>`, `jobs:<name> config key may not be used with
//   `rules`: only, except`, `jobs:<name> dependencies should be an array of strings`,
//   `jobs:<name>:script config should be a string or a nested array of strings up to 10 levels deep`,
//   `jobs:<name>:stage config should be a string`, `stages config should be an array of strings`.
// - lib/gitlab/ci/config/extendable/entry.rb: `<job>: unknown keys in `extends` (<bases>)`,
//   `<job>: invalid base hashes in `extends` (<bases>)`, `<job>: nesting too deep in `extends``,
//   `<job>: circular dependency detected in `extends``.
// - entry/processable.rb (warning): `jobs:<name> may allow multiple pipelines to run for a single action
//   due to `rules:when` clause with no `workflow:rules` - read more: <docs>`.
import { parseDocument } from 'yaml';

export type Config = Record<string, unknown>;

/** A config that could not be read at all: the service answers one error and no merged YAML. */
export class ConfigError extends Error {}

const RESERVED = ['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'cache', 'workflow'];
const JOB_KEYS = [
  ...['tags', 'script', 'run', 'type', 'image', 'services', 'start_in', 'artifacts', 'cache', 'dependencies', 'before_script'],
  ...['after_script', 'hooks', 'environment', 'coverage', 'retry', 'parallel', 'interruptible', 'timeout', 'release', 'secrets'],
  ...['id_tokens', 'publish', 'pages', 'manual_confirmation', 'identity', 'dast_configuration', 'inputs'],
  ...['extends', 'stage', 'only', 'except', 'rules', 'variables', 'inherit', 'allow_failure', 'when', 'needs', 'resource_group'],
];
const ALLOWED_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const WARNINGS_DOCS = 'read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings';
const MAX_NESTING = 10;

export const isHash = (v: unknown): v is Config => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** The YAML as the service's loader takes it: a mapping, else one error. */
export function loadYaml(content: string): Config {
  const doc = parseDocument(content, { merge: true, uniqueKeys: false });
  const problem = doc.errors[0];
  if (problem) {
    const [line, col] = [problem.linePos?.[0].line ?? 1, problem.linePos?.[0].col ?? 1];
    const text = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(`(<unknown>): ${text.charAt(0).toLowerCase()}${text.slice(1)} at line ${line} column ${col}`);
  }
  const value: unknown = doc.toJS({ maxAliasCount: -1 });
  if (!isHash(value)) throw new ConfigError('Invalid configuration format');
  return value;
}

/** Ruby's `deep_merge`: mappings merge key by key, anything else is replaced. */
export function deepMerge(into: Config, from: Config): Config {
  const out: Config = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const before = out[key];
    out[key] = isHash(before) && isHash(value) ? deepMerge(before, value) : value;
  }
  return out;
}

/** `extends:` resolved as extendable/entry.rb does: the bases merged in order, the job over them (keeping `extends`). */
export function applyExtends(config: Config): Config {
  const out: Config = { ...config };
  const extend = (name: string, ancestors: string[]): Config => {
    const job = out[name];
    if (!isHash(job) || job.extends === undefined) return job as Config;
    const bases = [job.extends].flat().map(String);
    const unknown = bases.filter((base) => !Object.hasOwn(out, base));
    if (unknown.length > 0) throw new ConfigError(`${name}: unknown keys in \`extends\` (${unknown.join(', ')})`);
    const invalid = bases.filter((base) => !isHash(out[base]));
    if (invalid.length > 0) throw new ConfigError(`${name}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
    if (ancestors.length > MAX_NESTING) throw new ConfigError(`${name}: nesting too deep in \`extends\``);
    if (ancestors.includes(name)) throw new ConfigError(`${name}: circular dependency detected in \`extends\``);
    const merged = bases.reduce<Config>((into, base) => deepMerge(into, extend(base, [...ancestors, name])), {});
    out[name] = deepMerge(merged, job);
    return out[name] as Config;
  };
  for (const name of Object.keys(out)) extend(name, []);
  return out;
}

/** Jobs are the keys the root does not reserve; hidden ones start with a dot. */
export function jobEntries(config: Config): Array<[string, unknown]> {
  return Object.entries(config).filter(([name]) => !RESERVED.includes(name));
}

const isJob = (name: string, value: unknown): value is Config =>
  !name.startsWith('.') && isHash(value) && (value.script !== undefined || value.run !== undefined || value.trigger !== undefined);

/** ActiveModel's `full_messages` under the validator: location, humanized attribute, message, lowercased. */
function entryError(location: string, attribute: string, message: string): string {
  const text = `${location} ${attribute.replace(/_id$/, '').replace(/_/g, ' ')} ${message}`.toLowerCase();
  return text.replace(
    /jobs ([a-z\s]+) config should implement/,
    (_m, name: string) => `jobs ${name.replace(/ /g, '_')} config should implement`,
  );
}

function isNestedStrings(value: unknown, level: number): boolean {
  if (isString(value)) return true;
  return Array.isArray(value) && level > 0 && value.every((v) => isString(v) || isNestedStrings(v, level - 1));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

/** The entry errors (the service reports them all), in the order its entries are composed. */
export function entryErrors(config: Config): string[] {
  const errors: string[] = [];
  if (config.stages !== undefined && !isStringArray(config.stages)) errors.push('stages config should be an array of strings');
  for (const key of ['before_script', 'after_script']) {
    if (config[key] !== undefined && !isNestedStrings(config[key], MAX_NESTING)) {
      errors.push(`${key} config should be a string or a nested array of strings up to ${MAX_NESTING} levels deep`);
    }
  }
  const jobs = jobEntries(config);
  for (const [name, value] of jobs) {
    if (!name.startsWith('.') && !isJob(name, value))
      errors.push(entryError('jobs', name, 'config should implement the script:, run:, or trigger: keyword'));
  }
  if (!jobs.some(([name, value]) => isJob(name, value)))
    errors.push(entryError('jobs', 'config', 'should contain at least one visible job'));
  for (const [name, value] of jobs) if (isJob(name, value)) errors.push(...jobErrors(name, value));
  return errors;
}

function jobErrors(name: string, job: Config): string[] {
  const at = `jobs:${name}`;
  const errors: string[] = [];
  const unknown = Object.keys(job).filter((key) => !JOB_KEYS.includes(key) && key !== 'trigger');
  if (unknown.length > 0) errors.push(entryError(at, 'config', `contains unknown keys: ${unknown.join(', ')}`));
  if (job.rules !== undefined && job.rules !== null) {
    const clash = Object.keys(job).filter((key) => ['only', 'except', 'start_in'].includes(key) && job[key] !== null);
    if (clash.length > 0) errors.push(entryError(at, 'config', `key may not be used with \`rules\`: ${clash.join(', ')}`));
  }
  if (job.when !== undefined && !ALLOWED_WHEN.includes(String(job.when))) {
    errors.push(entryError(at, 'when', `should be one of: ${ALLOWED_WHEN.join(', ')}`));
  }
  if (job.dependencies !== undefined && !isStringArray(job.dependencies))
    errors.push(entryError(at, 'dependencies', 'should be an array of strings'));
  if (job.script !== undefined && !isNestedStrings(job.script, MAX_NESTING)) {
    errors.push(`${at}:script config should be a string or a nested array of strings up to ${MAX_NESTING} levels deep`);
  }
  if (job.stage !== undefined && !isString(job.stage)) errors.push(`${at}:stage config should be a string`);
  return errors;
}

/** `.pre`, the declared stages (or the default ones), `.post`. */
export function stagesOf(config: Config): string[] {
  const declared = isStringArray(config.stages) ? config.stages : DEFAULT_STAGES;
  return [...new Set(['.pre', ...declared, '.post'])];
}

interface Need {
  name: string;
  optional: boolean;
}

export function needsOf(job: Config): Need[] | null {
  if (!Array.isArray(job.needs) && !isString(job.needs)) return null;
  return [job.needs]
    .flat()
    .map((n: unknown) =>
      isString(n) ? { name: n, optional: false } : isHash(n) && isString(n.job) ? { name: n.job, optional: n.optional === true } : null,
    )
    .filter((n): n is Need => n !== null);
}

/** The logical checks the service runs once the entries are valid; the first failure is the one error. */
export function logicalError(config: Config): string | null {
  const stages = stagesOf(config);
  const jobs = new Map(jobEntries(config).filter((entry): entry is [string, Config] => isJob(...entry)));
  const stageIndex = (name: string) => stages.indexOf(String(jobs.get(name)?.stage ?? 'test'));
  for (const [name, job] of jobs) {
    const stage = job.stage ?? 'test';
    if (!stages.includes(String(stage)))
      return `${name} job: chosen stage ${String(stage)} does not exist; available stages are ${stages.join(', ')}`;
    const check = (dependency: string, kind: string, optional: boolean): string | null => {
      if (!jobs.has(dependency)) return optional ? null : `${name} job: undefined ${kind}: ${dependency}`;
      const at = stageIndex(dependency);
      return at >= 0 && at <= stageIndex(name) ? null : `${name} job: ${kind} ${dependency} is not defined in current or prior stages`;
    };
    for (const dependency of (job.dependencies as string[] | undefined) ?? []) {
      const error = check(dependency, 'dependency', false);
      if (error) return error;
    }
    const needs = needsOf(job) ?? [];
    for (const need of needs) {
      const error = check(need.name, 'need', need.optional);
      if (error) return error;
    }
    const duplicated = [...new Set(needs.map((n) => n.name).filter((n, i, all) => all.indexOf(n) !== i))];
    if (duplicated.length > 0) return `${name} has the following needs duplicated: ${duplicated.join(', ')}.`;
  }
  return null;
}

/** The warning a job gets whose last rule is a bare `when` (not `never`) while the workflow has no rules. */
export function configWarnings(config: Config): string[] {
  if (isHash(config.workflow) && config.workflow.rules !== undefined) return [];
  const warnings: string[] = [];
  for (const [name, job] of jobEntries(config)) {
    if (!isJob(name, job) || !Array.isArray(job.rules)) continue;
    const last: unknown = job.rules.at(-1);
    if (isHash(last) && Object.keys(last).length === 1 && last.when !== undefined && last.when !== 'never') {
      warnings.push(
        `jobs:${name} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - ${WARNINGS_DOCS}`,
      );
    }
  }
  return warnings;
}

/** The visible jobs, by stage and then in the order written. */
export function jobsByStage(config: Config): Array<[string, Config, string]> {
  const jobs = jobEntries(config).filter((entry): entry is [string, Config] => isJob(...entry));
  return stagesOf(config).flatMap((stage) =>
    jobs.filter(([, job]) => (job.stage ?? 'test') === stage).map(([name, job]) => [name, job, stage] as [string, Config, string]),
  );
}
