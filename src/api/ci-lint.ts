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

/** The service's answer, kept whole so `-o json` prints it as it came. */
export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  merged_yaml: string | null;
  includes: unknown[] | null;
  jobs?: LintJob[];
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
  return await http.record<LintResult>({ method: 'POST', path: apiPath`/projects/${project}/ci/lint`, json });
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
  return await http.record<LintResult>({ path: apiPath`/projects/${project}/ci/lint`, query });
}
