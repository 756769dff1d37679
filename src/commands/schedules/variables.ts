import type { Command } from 'commander';
import { writeRecordTo } from '../../api/resource.js';
import { addCommand } from '../../cli/build.js';
import type { CommandSpec } from '../../cli/spec.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { encodePathSegment, type QueryParams } from '../../http/encode.js';
import type { Runtime } from '../../runtime.js';
import { fillPath, type Resource } from '../generic/resource.js';
import { writeVerb } from '../generic/write.js';
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
  args: [
    { name: 'project', help: PROJECT.help, parse: PROJECT.parse },
    { name: 'schedule', help: 'schedule id (as in the schedule URL)', parse: VARIABLES.params.schedule!.parse },
    { name: 'key', help: 'the variable name (letters, digits and _)', parse: VARIABLES.params.key!.parse },
  ],
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

const remove = writeVerb(VARIABLES, {
  name: 'delete',
  description: "Delete a schedule's variable (the schedule's owner only)",
  scheduled: (args) => `deleted variable ${String(args[2])} of schedule ${String(args[1])}`,
  examples: ['svc schedules variables delete acme/platform/api 3 DEPLOY_ENV'],
});

export function registerVariables(noun: Command, runtime: Runtime): void {
  const variables = noun.command('variables').description("Set and delete a schedule's variables");
  addCommand(variables, set as CommandSpec<unknown>, runtime);
  addCommand(variables, remove, runtime);
}
