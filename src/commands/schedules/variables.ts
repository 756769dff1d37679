import type { Command } from 'commander';
import { sendRequest, writeRecordTo } from '../../api/resource.js';
import { addCommand } from '../../cli/build.js';
import type { CommandSpec } from '../../cli/spec.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { encodePathSegment, type QueryParams } from '../../http/encode.js';
import type { Runtime } from '../../runtime.js';
import { calledOf, fillPath, itemPath, pathArgs, type Resource } from '../generic/resource.js';
import { idParam, nameParam, PROJECT } from '../shared/args.js';
import { writeResult } from '../shared/outcome.js';

/** The variables a schedule passes to the pipelines it starts. */
const VARIABLES: Resource = {
  path: '/projects/:project/pipeline_schedules/:schedule/variables',
  id: 'key',
  params: {
    project: PROJECT,
    schedule: idParam('schedule id', 'schedule id (as in the schedule URL)'),
    key: nameParam('key', 'the variable name (letters, digits and _)'),
  },
  fields: ['key', 'value', 'variable_type'],
  called: (args) => `variable ${String(args[2])} of schedule ${String(args[1])}`,
};

const ARGS = pathArgs(VARIABLES, itemPath(VARIABLES));

type Row = Record<string, unknown>;

/** The service has no upsert: a change first, and the variable is added when the change finds none. */
async function putOrAdd(http: HttpClient, collection: string, key: string, params: QueryParams): Promise<Row> {
  try {
    return await writeRecordTo<Row>(http, 'PUT', `${collection}/${encodePathSegment(key)}`, params);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || !/Variable Not Found/.test(error.message)) throw error;
    return writeRecordTo<Row>(http, 'POST', collection, { key, ...params });
  }
}

const set: CommandSpec<{ value?: string; variableType?: string }> = {
  name: 'set',
  description: "Set a schedule's variable: changes it if it exists, adds it otherwise (the schedule's owner only)",
  args: ARGS,
  options: [
    { flags: '--value <value>', help: 'the value (required to add one)' },
    { flags: '--variable-type <type>', help: 'env_var (the default) or file', choices: ['env_var', 'file'] },
  ],
  examples: ['svc schedules variables set acme/platform/api 3 DEPLOY_ENV --value staging'],
  async run(ctx, args, opts) {
    const http = await ctx.http({ requireToken: true });
    const params = {
      ...(opts.value !== undefined ? { value: opts.value } : {}),
      ...(opts.variableType ? { variable_type: opts.variableType } : {}),
    };
    const record = await putOrAdd(http, await fillPath(ctx, VARIABLES, VARIABLES.path, args), args[2] as string, params);
    ctx.info(`set variable ${String(record.key)} of schedule ${String(args[1])}`);
    await writeResult(ctx, record, VARIABLES.fields!);
  },
};

// The service deletes at once and still answers 202, so the generic delete's "scheduled" line would mislead.
const remove: CommandSpec = {
  name: 'delete',
  description: "Delete a schedule's variable (the schedule's owner only)",
  args: ARGS,
  examples: ['svc schedules variables delete acme/platform/api 3 DEPLOY_ENV'],
  async run(ctx, args) {
    const http = await ctx.http({ requireToken: true });
    await sendRequest(http, 'DELETE', await fillPath(ctx, VARIABLES, itemPath(VARIABLES), args));
    ctx.info(`deleted ${calledOf(VARIABLES, args)}`);
  },
};

export function registerVariables(noun: Command, runtime: Runtime): void {
  const variables = noun.command('variables').description("Set and delete a schedule's variables");
  addCommand(variables, set as CommandSpec<unknown>, runtime);
  addCommand(variables, remove, runtime);
}
