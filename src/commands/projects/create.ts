import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { createProject } from '../../api/projects.js';
import { getNamespace } from '../../api/namespaces.js';
import type { HttpClient } from '../../http/client.js';
import { writeRecord } from '../../output/writer.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { requiredTextParser } from '../shared/args.js';
import { PROJECT_FIELDS } from './get.js';

export const VISIBILITIES = ['public', 'internal', 'private'];

interface CreateOptions {
  name: string;
  path?: string;
  namespace?: string;
  description?: string;
  visibility?: string;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('create')
    .description('Create a project; validation errors are shown field by field (exit 6)')
    .requiredOption('--name <name>', 'project name', requiredTextParser('--name'))
    .option('--path <path>', 'URL path of the project (default: derived from the name)', requiredTextParser('--path'))
    .option('--namespace <namespace>', 'numeric id or full path of the group or user namespace (default: your own)', requiredTextParser('--namespace'))
    .option('--description <text>', 'project description')
    .addOption(new Option('--visibility <level>', 'visibility').choices(VISIBILITIES));
  withExamples(command, [
    'svc projects create --name "API docs" --path api-docs --namespace acme/platform --visibility internal',
    'svc projects create --name scratch -o json --fields id,web_url',
  ]);
  command.action(runtime.action<CreateOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const http = await ctx.http({ requireToken: true });
  const namespaceId = opts.namespace === undefined ? undefined : await namespaceIdFor(http, opts.namespace);
  const project = await createProject(http, {
    name: opts.name,
    path: opts.path,
    namespaceId,
    description: opts.description,
    visibility: opts.visibility,
  });
  await writeRecord(ctx.stdout, ctx.output, project, PROJECT_FIELDS);
}

/** The create endpoint takes a namespace id; a path is looked up first. */
async function namespaceIdFor(http: HttpClient, namespace: string): Promise<number> {
  const trimmed = namespace.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return (await getNamespace(http, trimmed)).id;
}
