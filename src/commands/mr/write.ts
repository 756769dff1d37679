import { createMergeRequest, getMergeRequest, type MergeRequest, updateMergeRequest } from '../../api/merge-requests.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { QueryParams } from '../../http/encode.js';
import { itemPath, serviceParams, withHints } from '../generic/resource.js';
import { requiredTextParser } from '../shared/args.js';
import { readText } from '../shared/text-source.js';
import { BODY_OPTIONS, MERGE_REQUESTS, MR_FIELDS, mergeStatusWords, IID_ARG, PROJECT_ARG, TARGET_OPTION } from './shared/resource.js';
import { writeResult } from '../shared/outcome.js';

interface WriteOptions {
  title?: string;
  draft?: boolean;
  description?: string;
  descriptionFile?: string;
  [key: string]: unknown;
}

const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)\s*/i;

/**
 * The body of a create or update: the keyed options, the description (inline, from a file, or
 * piped on stdin when `stdin`), the draft prefix on the title.
 */
async function writeBody(ctx: Context, options: OptionSpec[], opts: WriteOptions, stdin: boolean): Promise<QueryParams> {
  const description = await readText(ctx, {
    inline: { flag: '--description', value: opts.description },
    file: { flag: '--description-file', value: opts.descriptionFile },
    stdin,
    required: false,
  });
  const body = await serviceParams(ctx, options, opts);
  if (description !== undefined) body.description = description;
  if (opts.title !== undefined) {
    const bare = opts.title.replace(DRAFT_PREFIX, '');
    body.title = opts.draft ? `Draft: ${bare}` : opts.draft === false ? bare : opts.title;
  }
  return body;
}

async function printMergeRequest(ctx: Context, mr: MergeRequest): Promise<void> {
  ctx.info(`!${mr.iid} ${mergeStatusWords(mr)}: ${mr.web_url}`);
  await writeResult(ctx, mr, MR_FIELDS);
}

export const GET = defineCommand({
  name: 'get',
  description: 'Show one merge request, with whether it can be merged now and why not, in words',
  args: [PROJECT_ARG, IID_ARG],
  examples: ['svc mr get acme/platform/api 12', 'svc mr get 42 !3 -o json'],
  run: async (ctx, args) => {
    const http = await ctx.http();
    const [project, iid] = args as [string, string];
    await printMergeRequest(
      ctx,
      await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), args, () => getMergeRequest(http, project, iid)),
    );
  },
});

const CREATE_OPTIONS: OptionSpec[] = [
  {
    flags: '--source <branch>',
    key: 'source_branch',
    help: 'branch with the changes',
    parse: requiredTextParser('--source'),
    required: true,
  },
  { ...TARGET_OPTION, required: true },
  { flags: '--title <title>', help: 'title', parse: requiredTextParser('--title'), required: true },
  { flags: '--draft', help: 'open it as a draft (the title gets the "Draft:" prefix)' },
  ...BODY_OPTIONS,
];

export const CREATE = defineCommand<WriteOptions>({
  name: 'create',
  description: 'Open a merge request from one branch into another; the description comes from --description, --description-file or stdin',
  args: [PROJECT_ARG],
  options: CREATE_OPTIONS,
  examples: [
    'svc mr create acme/platform/api --source feature/login --target main --title "Add login" --reviewer jdoe',
    'svc mr create acme/platform/api --source fix/crash --target main --title "Fix the crash" --draft --description-file notes.md',
    'git log --format="- %s" main..HEAD | svc mr create 42 --source "$CI_COMMIT_REF_NAME" --target main --title "Release prep"',
  ],
  run: async (ctx, [project], opts) => {
    const body = await writeBody(ctx, CREATE_OPTIONS, opts, true);
    const mr = await createMergeRequest(await ctx.http({ requireToken: true }), project as string, body);
    ctx.info(`created !${mr.iid}`);
    await printMergeRequest(ctx, mr);
  },
});

const UPDATE_OPTIONS: OptionSpec[] = [
  { flags: '--title <title>', help: 'new title', parse: requiredTextParser('--title') },
  { flags: '--draft', help: 'mark it as a draft: the title (the new one, or the current one) gets the "Draft:" prefix' },
  { flags: '--ready', help: 'mark it ready: drop the "Draft:" prefix from the title (the new one, or the current one)' },
  TARGET_OPTION,
  { flags: '--add-labels <a,b>', key: 'add_labels', help: 'labels to add' },
  { flags: '--remove-labels <a,b>', key: 'remove_labels', help: 'labels to remove' },
  ...BODY_OPTIONS,
];

export const UPDATE = defineCommand<WriteOptions & { ready?: boolean }>({
  name: 'update',
  description: "Change a merge request's title, description, target, labels, assignees or reviewers",
  args: [PROJECT_ARG, IID_ARG],
  options: UPDATE_OPTIONS,
  examples: [
    'svc mr update acme/platform/api 12 --ready',
    'svc mr update acme/platform/api 12 --title "Add login" --draft',
    'svc mr update 42 3 --add-labels reviewed --reviewer jdoe',
  ],
  run: async (ctx, args, opts) => {
    if (opts.draft && opts.ready) throw new UsageError('give either --draft or --ready, not both');
    const [project, iid] = args as [string, string];
    const draft = opts.ready ? false : opts.draft;
    const http = await ctx.http({ requireToken: true });
    // The draft state is the title's prefix: without a new title, the current one gets it or loses it.
    const title =
      draft !== undefined && opts.title === undefined
        ? (await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), args, () => getMergeRequest(http, project, iid))).title
        : opts.title;
    const body = await writeBody(ctx, UPDATE_OPTIONS, { ...opts, title, draft }, false);
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one option');
    await printMergeRequest(ctx, await updateMergeRequest(http, project, iid, body));
  },
});

function stateCommand(name: 'close' | 'reopen', description: string) {
  return defineCommand({
    name,
    description,
    args: [PROJECT_ARG, IID_ARG],
    examples: [`svc mr ${name} acme/platform/api 12`],
    run: async (ctx, [project, iid]) => {
      const mr = await updateMergeRequest(await ctx.http({ requireToken: true }), project as string, iid as string, { state_event: name });
      ctx.info(`!${mr.iid} is ${mr.state}`);
      await writeResult(ctx, mr, MR_FIELDS);
    },
  });
}

export const CLOSE = stateCommand('close', 'Close a merge request without merging it');
export const REOPEN = stateCommand('reopen', 'Reopen a closed merge request');
