import { createVariable, findVariable, updateVariable, type VariableInput } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { readTextFile } from '../shared/local-file.js';
import { describeOwner, OWNER_OPTIONS, type OwnerFlags, variableOwner } from './shared/owner.js';
import { ENVIRONMENT_SCOPE, KEY_ARGUMENT, scopeFor } from './shared/key.js';
import { shownVariable, VARIABLE_COLUMNS } from './shared/values.js';
import { writeResult } from '../shared/outcome.js';

interface SetOptions extends OwnerFlags {
  value?: string;
  valueFile?: string;
  type?: string;
  protected?: boolean;
  masked?: boolean;
  hidden?: boolean;
  raw?: boolean;
  environmentScope?: string;
  description?: string;
}

export const SET = defineCommand<SetOptions>({
  name: 'set',
  description: 'Create a CI/CD variable, or update the one with this key in this environment scope',
  args: [KEY_ARGUMENT],
  options: [
    ...OWNER_OPTIONS,
    { flags: '--value <value>', help: 'the value (visible in the process list: prefer --value-file or stdin for secrets)' },
    { flags: '--value-file <path>', help: 'read the value from a file, byte for byte' },
    { flags: '--type <type>', help: 'variable type (service default: env_var)', choices: ['env_var', 'file'] },
    { flags: '--protected', help: 'only pipelines on protected branches and tags get it' },
    { flags: '--no-protected', help: 'available to every pipeline' },
    { flags: '--masked', help: 'masked in job logs (8+ characters of A-Z a-z 0-9 + / = @ : . ~ - _)' },
    { flags: '--no-masked', help: 'not masked' },
    { flags: '--hidden', help: 'masked and never readable again, not even in the web UI (only when creating)' },
    { flags: '--raw', help: 'not expanded: $ in the value stays as is' },
    { flags: '--no-raw', help: 'expanded' },
    ENVIRONMENT_SCOPE,
    { flags: '--description <text>', help: 'what the variable is for' },
  ],
  notes:
    'Without --value or --value-file the value is read from stdin, less one trailing newline. ' +
    'The same key in two environment scopes is two variables: --environment-scope picks which one is set. ' +
    'Options not given keep their current setting on an update.',
  examples: [
    'svc variables set --project acme/platform/api DEPLOY_URL --value https://staging.example.com --environment-scope staging',
    'printf %s "$TOKEN" | svc variables set --group acme REGISTRY_TOKEN --masked --protected',
    'svc variables set --instance CA_BUNDLE --type file --value-file ./ca.pem',
  ],
  run: (ctx, [key], opts) => run(ctx, key as string, opts),
});

async function run(ctx: Context, key: string, opts: SetOptions): Promise<void> {
  const owner = variableOwner(opts);
  const scope = scopeFor(owner, opts.environmentScope) ?? (owner.kind === 'instance' ? undefined : '*');
  const value = await variableValue(ctx, opts);
  const http = await ctx.http({ requireToken: true });
  const existing = await findVariable(http, owner, key, scope);
  const attributes: VariableInput = {
    value,
    variable_type: opts.type,
    protected: opts.protected,
    masked: opts.masked,
    raw: opts.raw,
    description: opts.description,
  };
  if (existing && opts.hidden && !existing.hidden) {
    throw new SvcError(
      `${key} exists and is not hidden; the service hides a variable only when it is created: delete it and set it again`,
      ExitCode.rejected,
    );
  }
  const variable = existing
    ? await updateVariable(http, owner, key, scope, attributes)
    : await createVariable(http, owner, { key, ...attributes, environment_scope: scope, masked_and_hidden: opts.hidden });
  ctx.info(`${existing ? 'updated' : 'created'} variable ${key}${scope ? ` (${scope})` : ''} of ${describeOwner(owner)}`);
  await writeResult(ctx, shownVariable(variable, false, ctx.globals.output), VARIABLE_COLUMNS);
}

const NO_VALUE = 'no value: give --value, --value-file, or pipe it on stdin';

async function variableValue(ctx: Context, opts: SetOptions): Promise<string> {
  if (opts.value !== undefined && opts.valueFile !== undefined) throw new UsageError('give either --value or --value-file, not both');
  if (opts.value !== undefined) return opts.value;
  if (opts.valueFile !== undefined) return await readTextFile('--value-file', opts.valueFile, ctx.signal);
  if (ctx.io.isTTY.stdin) throw new UsageError(NO_VALUE);
  const piped = (await ctx.readStdin()).toString('utf8').replace(/\r?\n$/, '');
  // An empty pipe is most often an unset shell variable; an empty value must be asked for with --value ''.
  if (!piped) throw new UsageError(`nothing on stdin; ${NO_VALUE}`);
  return piped;
}
