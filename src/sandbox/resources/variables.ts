// CI/CD variables of a project, a group and the instance (reference
// endpoints §5): validation of keys and masked values, one key per
// environment scope, `filter[environment_scope]` to pick among same-key
// variables, hidden values never read back. Where the reference is open:
// group variables need the owner role, the key-format text is the model's
// ("can contain only letters, digits and '_'."), raw masked values need 8
// non-blank characters.
import { can, groupRole, OWNER } from '../access.js';
import type { Input } from '../engine/fields.js';
import { mountPlain, type Records } from '../engine/plain.js';
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { storeFor } from '../store/collection.js';
import type { Scope } from '../server/router.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';

export interface VariableRec {
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

/** A variable a scenario describes, in the place of `owner` (`project:1`, `group:2`). */
export function addVariable(w: World, owner: string, v: VariableRec): void {
  const store = variables(w);
  store.set(owner, [...(store.get(owner) ?? []), v]);
}

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

function environmentScope(place: Place, input: Input, fallback: string): string {
  const scope = input.environment_scope as string | undefined;
  return !place.scoped || scope === undefined || scope === '' ? fallback : scope;
}

const SETTINGS = {
  variable_type: { type: 'string', values: VARIABLE_TYPES },
  protected: { type: 'boolean' },
  masked: { type: 'boolean' },
  raw: { type: 'boolean' },
  environment_scope: { type: 'string' },
  description: { type: 'string' },
} as const;

const records: Records<Place, VariableRec> = {
  list: listOf,
  find: (ctx, place) => findVariable(ctx, place),
  add(ctx, place, input) {
    const hidden = input.masked_and_hidden === true;
    const v: VariableRec = {
      key: input.key as string,
      value: input.value as string,
      variableType: (input.variable_type as VariableRec['variableType'] | undefined) ?? 'env_var',
      protected: (input.protected as boolean | undefined) ?? false,
      masked: hidden || ((input.masked as boolean | undefined) ?? false),
      hidden,
      raw: (input.raw as boolean | undefined) ?? false,
      environmentScope: environmentScope(place, input, '*'),
      description: (input.description as string | undefined) ?? null,
    };
    validate(ctx, place, v, null);
    listOf(ctx, place).push(v);
    return v;
  },
  change(ctx, place, old, input) {
    const v: VariableRec = {
      ...old,
      value: (input.value as string | undefined) ?? old.value,
      variableType: (input.variable_type as VariableRec['variableType'] | undefined) ?? old.variableType,
      protected: (input.protected as boolean | undefined) ?? old.protected,
      masked: old.hidden || ((input.masked as boolean | undefined) ?? old.masked),
      raw: (input.raw as boolean | undefined) ?? old.raw,
      environmentScope: environmentScope(place, input, old.environmentScope),
      description: (input.description as string | undefined) ?? old.description,
    };
    validate(ctx, place, v, old);
    const list = listOf(ctx, place);
    list[list.indexOf(old)] = v;
    return v;
  },
  drop(ctx, place, v) {
    const list = listOf(ctx, place);
    list.splice(list.indexOf(v), 1);
  },
};

/** The five routes of one place, each behind the place's permission check. */
function mountPlace<T>(
  scope: Scope<T>,
  path: string,
  auth: 'user' | 'admin',
  may: (ctx: Ctx, parent: T) => boolean,
  place: (ctx: Ctx, parent: T) => Place,
): void {
  mountPlain<T, Place, VariableRec>({
    scope,
    path,
    key: 'key',
    auth: { read: auth, write: auth },
    may: { list: may, read: may, create: may, update: may, delete: may },
    owner: place,
    fields: {
      create: {
        key: { type: 'string', required: true },
        value: { type: 'string', required: true },
        masked_and_hidden: { type: 'boolean' },
        ...SETTINGS,
      },
      update: { value: { type: 'string' }, ...SETTINGS },
    },
    records,
    notFound: (pl) => E.notFound(pl.model),
    json: (_ctx, pl, v) => variableJson(pl, v),
    deleted: 204,
  });
}

export function mountVariables({ root, project, group }: Mounts): void {
  // Maintainers administer a project's CI/CD settings.
  mountPlace(
    project,
    '/variables',
    'user',
    (ctx, p) => can(ctx.world, ctx.user, p, 'admin_project'),
    (_ctx, p) => ({ owner: `project:${p.id}`, model: 'Variable', scoped: true }),
  );
  mountPlace(
    group,
    '/variables',
    'user',
    (ctx, g) => ctx.user!.isAdmin || groupRole(ctx.world, ctx.user!.id, g) >= OWNER,
    (ctx, g) => ({ owner: `group:${g.id}`, model: 'GroupVariable', scoped: ctx.core.opts.tier === 'premium' }),
  );
  mountPlace(
    root,
    '/admin/ci/variables',
    'admin',
    () => true,
    () => ({ owner: 'instance', model: 'InstanceVariable', scoped: false }),
  );
}
