import { InvalidArgumentError } from 'commander';
import { writeRecordTo } from '../../api/resource.js';
import { collect } from '../../cli/parsers.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { attributeName, itemPath, serviceParams, withHints } from '../generic/resource.js';
import { requiredTextParser } from '../shared/args.js';
import { ISSUE_ARGS, ISSUE_FIELDS, ISSUES } from './shared/resource.js';
import { readText } from '../shared/text-source.js';
import { userIds } from '../shared/users.js';
import { writeResult } from '../shared/outcome.js';

interface Issue {
  iid: number;
  web_url: string;
}

function dueDate(value: string): string {
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim()) ?? [];
  const date = new Date(`${y}-${m}-${d}T00:00:00Z`);
  if (!y || Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d)) {
    throw new InvalidArgumentError('--due takes a date as YYYY-MM-DD');
  }
  return value.trim();
}

const DESCRIPTION_OPTIONS: OptionSpec[] = [
  { flags: '--description <text>', help: 'description (Markdown)' },
  { flags: '--description-file <path>', help: 'read the description from a file (- for stdin)' },
];

const ASSIGNEE: OptionSpec = {
  flags: '--assignee <user>',
  key: 'assignee_ids',
  help: 'assignee: username or user id (repeatable; the free tier keeps one)',
  parse: collect,
  resolve: (http, users) => userIds(http, users as string[]),
};

const SHARED: OptionSpec[] = [
  { flags: '--milestone <title>', key: 'milestone', help: 'milestone title', parse: requiredTextParser('--milestone') },
  { flags: '--due <date>', key: 'due_date', help: 'due date, YYYY-MM-DD', parse: dueDate },
];

const CREATE_BODY: OptionSpec[] = [
  { flags: '--title <title>', key: 'title', help: 'issue title', parse: requiredTextParser('--title'), required: true },
  {
    flags: '--labels <labels>',
    key: 'labels',
    help: 'labels, comma-separated (missing ones are created)',
    parse: requiredTextParser('--labels'),
  },
  ASSIGNEE,
  ...SHARED,
  { flags: '--confidential', key: 'confidential', help: 'visible only to project members with reporter access or more' },
];

interface DescriptionFlags {
  description?: string;
  descriptionFile?: string;
}

function description(ctx: Context, opts: DescriptionFlags, stdin: boolean): Promise<string | undefined> {
  return readText(ctx, {
    inline: { flag: '--description', value: opts.description },
    file: { flag: '--description-file', value: opts.descriptionFile },
    stdin,
    required: false,
  });
}

export const CREATE = defineCommand<Record<string, unknown> & DescriptionFlags>({
  name: 'create',
  description: 'Open an issue; the description comes from --description, --description-file or stdin',
  args: ISSUE_ARGS.slice(0, 1),
  options: [...CREATE_BODY.slice(0, 1), ...DESCRIPTION_OPTIONS, ...CREATE_BODY.slice(1)],
  examples: [
    'svc issues create acme/platform/api --title "Nightly build failed" --labels ci,bug --assignee jdoe',
    'tail -n 50 build.log | svc issues create 42 --title "rspec failed on main" --confidential --due 2026-12-01',
  ],
  async run(ctx, [project], opts) {
    const text = await description(ctx, opts, true);
    const http = await ctx.http({ requireToken: true });
    const body = { ...(await serviceParams(ctx, CREATE_BODY, opts)), description: text };
    const issue = await writeRecordTo<Issue>(http, 'POST', apiPath`/projects/${project as string}/issues`, body);
    ctx.info(`created issue #${issue.iid}: ${issue.web_url}`);
    await writeResult(ctx, issue, ISSUE_FIELDS);
  },
});

const UPDATE_BODY: OptionSpec[] = [
  { flags: '--title <title>', key: 'title', help: 'new title', parse: requiredTextParser('--title') },
  { flags: '--labels <labels>', key: 'labels', help: "replace every label by these (comma-separated; '' removes them all)" },
  {
    flags: '--add-labels <labels>',
    key: 'add_labels',
    help: 'add these labels (comma-separated)',
    parse: requiredTextParser('--add-labels'),
  },
  {
    flags: '--remove-labels <labels>',
    key: 'remove_labels',
    help: 'remove these labels (comma-separated)',
    parse: requiredTextParser('--remove-labels'),
  },
  ASSIGNEE,
  ...SHARED,
];

export const UPDATE = defineCommand<Record<string, unknown> & DescriptionFlags>({
  name: 'update',
  description: "Change an issue's title, description, labels, assignees, milestone or due date",
  args: ISSUE_ARGS,
  options: [...UPDATE_BODY.slice(0, 1), ...DESCRIPTION_OPTIONS, ...UPDATE_BODY.slice(1)],
  examples: [
    'svc issues update acme/platform/api 12 --add-labels triaged --remove-labels needs-info',
    'svc issues update 42 3 --description-file notes.md --assignee jdoe',
  ],
  async run(ctx, args, opts) {
    const text = await description(ctx, opts, false);
    if (text === undefined && !UPDATE_BODY.some((o) => opts[attributeName(o.flags)] !== undefined)) {
      throw new UsageError(
        'nothing to change: give --title, --description, --description-file, --labels, --add-labels, --remove-labels, --assignee, --milestone or --due',
      );
    }
    const http = await ctx.http({ requireToken: true });
    const body = { ...(await serviceParams(ctx, UPDATE_BODY, opts)), description: text };
    const [project, iid] = args as [string, string];
    const issue = await withHints(ISSUES, itemPath(ISSUES), args, () =>
      writeRecordTo<Issue>(http, 'PUT', apiPath`/projects/${project}/issues/${iid}`, body),
    );
    ctx.info(`updated issue #${issue.iid}: ${issue.web_url}`);
    await writeResult(ctx, issue, ISSUE_FIELDS);
  },
});
