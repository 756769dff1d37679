import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getTag } from '../../api/repository.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';

const TAG_FIELDS = ['name', 'commit.id', 'message', 'release.tag_name', 'protected', 'created_at'];

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('get')
    .description('Show one tag')
    .argument('<project>', PROJECT_ARGUMENT)
    .argument('<tag>', 'tag name, e.g. v1.0.0+build.5 (typed as is; svc encodes it)', requiredTextParser('tag'));
  withExamples(command, ['svc tags get acme/platform/api v1.0.0+build.5', 'svc tags get 42 v1.1.0 --fields name,commit.id']);
  command.action(runtime.action((ctx, [project, tag]) => run(ctx, projectRef(project as string), tag as string)));
}

export async function run(ctx: Context, project: string, tag: string): Promise<void> {
  const http = await ctx.http();
  await writeRecord(ctx.stdout, ctx.output, await getTag(http, project, tag), TAG_FIELDS);
}
