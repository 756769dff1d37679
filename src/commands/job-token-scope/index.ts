import { getProject } from '../../api/projects.js';
import { sendRequest } from '../../api/resource.js';
import { defineCommand, type CommandSpec, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { apiPath } from '../../http/encode.js';
import { groupReach, projectReach, readScope } from '../../workflows/job-token-scope/reach.js';
import { withRole } from '../generic/role.js';
import { groupId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { writeResult } from '../shared/outcome.js';
import { onePage } from '../shared/plan-outcome.js';

interface TargetOptions {
  project?: string;
  group?: string;
}

const TARGET: OptionSpec[] = [
  { flags: '--project <project>', help: 'the project whose CI jobs are meant (id or path)', parse: projectRef, conflicts: ['group'] },
  { flags: '--group <group>', help: "the group whose projects' CI jobs are meant (id or full path)" },
];
const ARG = { name: 'project', help: `the project the jobs reach: ${PROJECT_ARGUMENT}`, parse: projectRef };
const ROLE = 'maintainer';

/** The service's writes take the numeric id of the project only. */
async function numericProject(ctx: Context, project: string): Promise<string> {
  if (/^\d+$/.test(project)) return project;
  return String((await getProject(await ctx.http(), project)).id);
}

function target(opts: TargetOptions): { kind: 'project' | 'group'; ref: string } {
  if (opts.project !== undefined) return { kind: 'project', ref: opts.project };
  if (opts.group !== undefined) return { kind: 'group', ref: opts.group };
  throw new UsageError('give --project P or --group G');
}

const GET = defineCommand<TargetOptions>({
  name: 'get',
  description: "Show a project's inbound job token scope, or with --project/--group whether their jobs may reach it",
  args: [ARG],
  options: TARGET,
  notes:
    'With --project X: can a CI job of project X use its job token on PROJECT? Yes (exit 0) when the inbound scope of PROJECT ' +
    'is disabled, when X is PROJECT, when X is on the allowlist, or when X is in an allowlisted group (or one below it); ' +
    'otherwise no (exit 10). The answer and its reason go to stdout as a record (allowed, reason). With --group G: one such ' +
    'record for every project in G and its subgroups (job_project, allowed, reason); exit 10 when any of them may not. ' +
    'Needs the maintainer role on PROJECT.',
  examples: [
    'svc job-token-scope get acme/platform/api',
    'svc job-token-scope get acme/platform/api --project acme/platform/web',
    'svc job-token-scope get acme/platform/api --group acme -o json',
  ],
  run: (ctx, [project], opts) => withRole(ROLE, () => get(ctx, project as string, opts)),
});

async function get(ctx: Context, project: string, opts: TargetOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  if (opts.project === undefined && opts.group === undefined) {
    await ctx.printRecord(await readScope(http, project), ['inbound_enabled', 'outbound_enabled', 'allowlist', 'groups_allowlist']);
    return;
  }
  if (opts.group !== undefined) return getForGroup(ctx, http, project, opts.group);
  const reach = await projectReach(http, project, opts.project!);
  await ctx.printRecord({ project, job_project: opts.project, ...reach }, ['allowed', 'reason']);
  if (!reach.allowed) throw new SvcError(`no: ${reach.reason}`, ExitCode.answeredNo);
}

/** One answer per project of the group; no (exit 10) when any of them may not reach PROJECT. */
async function getForGroup(ctx: Context, http: HttpClient, project: string, group: string): Promise<void> {
  const { target: onto, reaches } = await groupReach(http, project, group);
  await ctx.printPages(onePage(reaches), ['job_project', 'allowed', 'reason']);
  const refused = reaches.filter((r) => !r.allowed);
  if (refused.length > 0)
    throw new SvcError(
      `no: ${refused.length} of ${reaches.length} projects in ${group} may not reach ${onto}: ${refused.map((r) => r.job_project).join(', ')}`,
      ExitCode.answeredNo,
    );
}

function write(name: 'add' | 'remove'): CommandSpec<TargetOptions> {
  const adding = name === 'add';
  return defineCommand<TargetOptions>({
    name,
    description: adding
      ? "Let a project's (or a group's projects') CI jobs reach a project: add it to the inbound allowlist"
      : 'Take a project or a group off the inbound allowlist of a project',
    args: [ARG],
    options: TARGET,
    notes: 'Needs the maintainer role on PROJECT, and to see the project or group added.',
    examples: [
      `svc job-token-scope ${name} acme/platform/api --project acme/platform/web`,
      `svc job-token-scope ${name} acme/platform/api --group acme`,
    ],
    run: (ctx, [project], opts) => withRole(ROLE, () => change(ctx, name, project as string, opts)),
  });
}

async function change(ctx: Context, name: 'add' | 'remove', project: string, opts: TargetOptions): Promise<void> {
  const { kind, ref } = target(opts);
  const http = await ctx.http({ requireToken: true });
  const id = await numericProject(ctx, project);
  const targetId = kind === 'project' ? await numericProject(ctx, ref) : String(await groupId(http, ref));
  const list = kind === 'project' ? 'allowlist' : 'groups_allowlist';
  const called = `${kind} ${ref}`;
  if (name === 'add') {
    const key = kind === 'project' ? 'target_project_id' : 'target_group_id';
    const res = await sendRequest(http, 'POST', apiPath`/projects/${id}/job_token_scope/${list}`, { [key]: Number(targetId) });
    ctx.info(`added ${called} to the job token allowlist of project ${project}`);
    await writeResult(ctx, res.data, ['source_project_id', key]);
    return;
  }
  await sendRequest(http, 'DELETE', apiPath`/projects/${id}/job_token_scope/${list}/${targetId}`);
  ctx.info(`removed ${called} from the job token allowlist of project ${project}`);
}

export const commands = [GET, write('add'), write('remove')];
