import { writeRecordTo } from '../../api/resource.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { apiPath } from '../../http/encode.js';
import { itemPath, serviceParams, withHints } from '../generic/resource.js';
import { refuseEmptyUpdate } from '../generic/write.js';
import { CREATE_BODY, DESCRIPTION_OPTIONS } from './shared/fields.js';
import { ISSUE_ARGS, ISSUE_FIELDS, ISSUE_UPDATE, ISSUES } from './shared/resource.js';
import { readText } from '../shared/text-source.js';
import { writeResult } from '../shared/outcome.js';

interface Issue {
  iid: number;
  web_url: string;
}

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

export const UPDATE = defineCommand<Record<string, unknown> & DescriptionFlags>({
  name: 'update',
  description: "Change an issue's title, description, labels, assignees, milestone or due date",
  args: ISSUE_ARGS,
  options: ISSUE_UPDATE.fields,
  examples: [
    'svc issues update acme/platform/api 12 --add-labels triaged --remove-labels needs-info',
    'svc issues update 42 3 --description-file notes.md --assignee jdoe',
  ],
  async run(ctx, args, opts) {
    refuseEmptyUpdate(ISSUE_UPDATE, opts);
    const text = await description(ctx, opts, false);
    const http = await ctx.http({ requireToken: true });
    const body = { ...(await serviceParams(ctx, ISSUE_UPDATE.fields, opts)), description: text };
    const [project, iid] = args as [string, string];
    const issue = await withHints(ISSUES, itemPath(ISSUES), args, () =>
      writeRecordTo<Issue>(http, 'PUT', apiPath`/projects/${project}/issues/${iid}`, body),
    );
    ctx.info(`updated issue #${issue.iid}: ${issue.web_url}`);
    await writeResult(ctx, issue, ISSUE_FIELDS);
  },
});
