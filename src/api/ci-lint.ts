import { SvcError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';

/** One job as the linter lists it (`include_jobs`). */
export interface LintJob {
  name: string;
  stage: string;
  when: string;
  allow_failure: boolean;
  [key: string]: unknown;
}

/** The service's answer, kept whole so `-o json` prints it as it came (a list it left out is none). */
export interface LintResult {
  valid: boolean;
  errors?: unknown[] | null;
  warnings?: unknown[] | null;
  merged_yaml: string | null;
  includes: unknown[] | null;
  jobs?: LintJob[] | null;
  [key: string]: unknown;
}

export interface LintOptions {
  dryRun: boolean;
  includeJobs: boolean;
  /** The branch or tag a dry run creates its pipeline for (the default branch without it). */
  ref?: string;
}

/** Lints a config given as text, in the project's context (its local includes, its variables). */
export async function lintContent(http: HttpClient, project: string, content: string, options: LintOptions): Promise<LintResult> {
  const json = { content, dry_run: options.dryRun, include_jobs: options.includeJobs, ref: options.ref };
  const path = apiPath`/projects/${project}/ci/lint`;
  return checked(await http.record<LintResult>({ method: 'POST', path, json }), `POST ${path}`);
}

/**
 * Lints the project's own CI config file at a ref: `sha` says where the file is read, `ref` where a dry
 * run runs (both names are the ones every version of the endpoint takes).
 */
export async function lintProjectConfig(http: HttpClient, project: string, options: LintOptions): Promise<LintResult> {
  const query = {
    sha: options.ref,
    ref: options.dryRun ? options.ref : undefined,
    dry_run: options.dryRun,
    include_jobs: options.includeJobs,
  };
  const path = apiPath`/projects/${project}/ci/lint`;
  return checked(await http.record<LintResult>({ path, query }), `GET ${path}`);
}

/**
 * The answer, if it says valid or not as a boolean and lists errors, warnings and jobs as lists: the
 * exit code rests on `valid`, so an answer from something other than the linter (a proxy's `{}`, a
 * `"valid": "false"`) is a failure, not a config judged valid.
 */
function checked(result: LintResult, where: string): LintResult {
  const problem =
    typeof result.valid !== 'boolean'
      ? `no true or false 'valid'`
      : (['errors', 'warnings', 'jobs'] as const)
          .filter((key) => result[key] != null && !Array.isArray(result[key]))
          .map((key) => `'${key}' that is not a list`)[0];
  if (problem) throw new SvcError(`${where} returned a lint result with ${problem}`);
  return result;
}
