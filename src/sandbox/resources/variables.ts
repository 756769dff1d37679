// CI/CD variables of a project, a group and the instance (reference
// endpoints §5): validation of keys and masked values, one key per
// environment scope, `filter[environment_scope]` to pick among same-key
// variables, hidden values never read back. Where the reference is open:
// group variables need the owner role, the key-format text is the model's
// ("can contain only letters, digits and '_'."), raw masked values need 8
// non-blank characters.
import { can, groupRole, OWNER } from '../access.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, enumParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import { storeFor } from '../store/collection.js';
import type { Scope } from '../server/router.js';
import type { Mounts } from './mounts.js';

interface VariableRec {
  key: string;
  value: string;
  variableType: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  hidden: boolean;
  raw: boolean;
  environmentScope: string;
  description: string | null;
}

/** What differs between the three places variables live. */
interface Place {
  /** Store key of the owner: `project:1`, `group:2`, `instance`. */
  owner: string;
  /** `not_found!` name of the model. */
  model: 'Variable' | 'GroupVariable' | 'InstanceVariable';
  /** Whether variables here carry an environment scope (instance ones never do; group ones on premium only). */
  scoped: boolean;
}

const VARIABLE_TYPES = ['env_var', 'file'] as const;
const KEY_FORMAT = /^[a-zA-Z0-9_]+$/;
// Masked values: the Base64 alphabet plus `@ : . ~ -`, 8 characters or more; raw ones any 8 non-blank characters.
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKABLE_RAW = /^\S{8,}$/;

const variables = storeFor(() => new Map<string, VariableRec[]>());

function listOf(ctx: Ctx, place: Place): VariableRec[] {
  const store = variables(ctx.world);
  let list = store.get(place.owner);
  if (!list) {
    list = [];
    store.set(place.owner, list);
  }
  return list;
}

function variableJson(place: Place, v: VariableRec): Record<string, unknown> {
  return {
    variable_type: v.variableType,
    key: v.key,
    value: v.hidden ? null : v.value,
    hidden: v.hidden,
    protected: v.protected,
    masked: v.masked,
    raw: v.raw,
    ...(place.model === 'InstanceVariable' ? {} : { environment_scope: v.environmentScope }),
    description: v.description,
  };
}

function scopeFilter(ctx: Ctx): string | undefined {
  const filter = ctx.params.filter;
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return undefined;
  const scope = (filter as Record<string, unknown>).environment_scope;
  return typeof scope === 'string' ? scope : undefined;
}

/** The variable named by `:key`, narrowed by `filter[environment_scope]`; several left is a conflict. */
function findVariable(ctx: Ctx, place: Place): VariableRec {
  const key = ctx.p.key!;
  const scope = place.scoped ? scopeFilter(ctx) : undefined;
  const found = listOf(ctx, place).filter((v) => v.key === key && (scope === undefined || v.environmentScope === scope));
  if (found.length === 0) throw E.notFound(place.model);
  if (found.length > 1) {
    throw new ApiError(409, {
      message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    });
  }
  return found[0]!;
}

/** Model validations, all reported together as the service's nested validation body. */
function validate(ctx: Ctx, place: Place, v: VariableRec, self: VariableRec | null): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (v.key.length > 255) add('key', 'is too long (maximum is 255 characters)');
  if (!KEY_FORMAT.test(v.key)) add('key', "can contain only letters, digits and '_'.");
  const taken = listOf(ctx, place).some((o) => o !== self && o.key === v.key && o.environmentScope === v.environmentScope);
  if (taken) add('key', `(${v.key}) has already been taken`);
  if ((v.masked || v.hidden) && !(v.raw ? MASKABLE_RAW : MASKABLE).test(v.value)) add('value', 'is invalid');
  if (Object.keys(errors).length > 0) throw E.validation(errors);
}

function environmentScope(ctx: Ctx, place: Place, fallback: string): string {
  if (!place.scoped) return fallback;
  const scope = strParam(ctx, 'environment_scope');
  return scope === undefined || scope === '' ? fallback : scope;
}

function create(ctx: Ctx, place: Place): void {
  const key = strParam(ctx, 'key');
  const value = strParam(ctx, 'value');
  const missing = [key === undefined ? 'key' : '', value === undefined ? 'value' : ''].filter(Boolean);
  if (missing.length > 0) throw E.missing(...missing);
  const hidden = boolParam(ctx, 'masked_and_hidden') === true;
  const v: VariableRec = {
    key: key!,
    value: value!,
    variableType: enumParam(ctx, 'variable_type', VARIABLE_TYPES, 'env_var'),
    protected: boolParam(ctx, 'protected') ?? false,
    masked: hidden || (boolParam(ctx, 'masked') ?? false),
    hidden,
    raw: boolParam(ctx, 'raw') ?? false,
    environmentScope: environmentScope(ctx, place, '*'),
    description: strParam(ctx, 'description') ?? null,
  };
  validate(ctx, place, v, null);
  listOf(ctx, place).push(v);
  sendJson(ctx, 201, variableJson(place, v));
}

function update(ctx: Ctx, place: Place): void {
  const old = findVariable(ctx, place);
  const v: VariableRec = {
    ...old,
    value: strParam(ctx, 'value') ?? old.value,
    variableType: enumParam(ctx, 'variable_type', VARIABLE_TYPES, old.variableType),
    protected: boolParam(ctx, 'protected') ?? old.protected,
    masked: old.hidden || (boolParam(ctx, 'masked') ?? old.masked),
    raw: boolParam(ctx, 'raw') ?? old.raw,
    environmentScope: environmentScope(ctx, place, old.environmentScope),
    description: strParam(ctx, 'description') ?? old.description,
  };
  validate(ctx, place, v, old);
  const list = listOf(ctx, place);
  list[list.indexOf(old)] = v;
  sendJson(ctx, 200, variableJson(place, v));
}

function remove(ctx: Ctx, place: Place): void {
  const v = findVariable(ctx, place);
  const list = listOf(ctx, place);
  list.splice(list.indexOf(v), 1);
  sendJson(ctx, 204, null);
}

/** The five routes of one place, each behind its permission check. */
function mountPlace<T>(scope: Scope<T>, base: string, auth: 'user' | 'admin', place: (ctx: Ctx, parent: T) => Place): void {
  scope.get(base, { auth }, (ctx, parent) => {
    const pl = place(ctx, parent);
    sendList(
      ctx,
      pageOf(ctx, listOf(ctx, pl)).map((v) => variableJson(pl, v)),
    );
  });
  scope.get(`${base}/:key`, { auth }, (ctx, parent) => {
    const pl = place(ctx, parent);
    sendJson(ctx, 200, variableJson(pl, findVariable(ctx, pl)));
  });
  scope.post(base, { auth }, (ctx, parent) => create(ctx, place(ctx, parent)));
  scope.put(`${base}/:key`, { auth }, (ctx, parent) => update(ctx, place(ctx, parent)));
  scope.delete(`${base}/:key`, { auth }, (ctx, parent) => remove(ctx, place(ctx, parent)));
}

export function mountVariables({ root, project, group }: Mounts): void {
  mountPlace(project, '/variables', 'user', (ctx, p) => {
    // Maintainers administer a project's CI/CD settings.
    if (!can(ctx.world, ctx.user, p, 'admin_project')) throw E.forbidden();
    return { owner: `project:${p.id}`, model: 'Variable', scoped: true };
  });
  mountPlace(group, '/variables', 'user', (ctx, g) => {
    const user = ctx.user!;
    if (!user.isAdmin && groupRole(ctx.world, user.id, g) < OWNER) throw E.forbidden();
    return { owner: `group:${g.id}`, model: 'GroupVariable', scoped: ctx.core.opts.tier === 'premium' };
  });
  mountPlace(root, '/admin/ci/variables', 'admin', () => ({ owner: 'instance', model: 'InstanceVariable', scoped: false }));
}
