import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getIssue } from '../../api/issues.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { numericId, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { IID_ARGUMENT_HELP, withIidHint } from './iid.js';

const ISSUE_FIELDS = ['id', 'iid', 'title', 'state', 'author.username', 'labels', 'created_at', 'web_url'];

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description("Show one issue, addressed by its iid (the number in the web UI), not its global id")
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<iid>', IID_ARGUMENT_HELP);
  withExamples(command, ['svc issues get acme/platform/api 12', 'svc issues get 42 3 -o json']);
  command.action(runtime.action((ctx, [project, iid]) => run(ctx, projectRef(project as string), numericId('iid', iid as string))));
}

export async function run(ctx: Context, project: string, iid: number): Promise<void> {
  const http = await ctx.http();
  const issue = await withIidHint(iid, () => getIssue(http, project, iid));
  await writeRecord(ctx.stdout, ctx.output, issue, ISSUE_FIELDS);
}
