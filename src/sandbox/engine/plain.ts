// The routes of a plain resource from its declaration: list (paged as the service pages), read,
// create, update and delete under one path; the role each action needs (403 otherwise); the
// declared fields; the service's 404 and 409. What a resource does beyond that stays in its own
// file, in the record functions and the serializer it hands over here.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Scope } from '../server/router.js';
import { type Fields, type Input, readFields } from './fields.js';

export type Action = 'list' | 'read' | 'create' | 'update' | 'delete';

type Auth = 'public' | 'user' | 'admin';

/** How a resource keeps its records under one owner (`O`: what the routes' parent resolves to). */
export interface Records<O, R> {
  list(ctx: Ctx, owner: O): readonly R[];
  /** The record `:key` names, or undefined (answered with the declared 404). */
  find(ctx: Ctx, owner: O, key: string, action: Action): R | undefined;
  add(ctx: Ctx, owner: O, input: Input): R;
  change(ctx: Ctx, owner: O, rec: R, input: Input): R;
  drop(ctx: Ctx, owner: O, rec: R): void;
}

export interface PlainResource<P, O, R> {
  scope: Scope<P>;
  /** e.g. `/labels`; items live at `${path}/:${key}` */
  path: string;
  key: string;
  auth: { read: Auth; write: Auth };
  /** a CI job token is a credential here */
  job?: boolean;
  /** only where the tier is premium (the router's 404 otherwise) */
  premium?: boolean;
  /** Whether the caller may take an action on this parent; false answers `403 Forbidden`. */
  may?: Partial<Record<Action, (ctx: Ctx, parent: P) => boolean>>;
  owner(ctx: Ctx, parent: P, action: Action): O;
  fields: { create: Fields; update: Fields; atLeastOne?: readonly string[] };
  records: Records<O, R>;
  /** The service's answer when `:key` names nothing, e.g. `E.notFound('Label')`. */
  notFound(owner: O): ApiError;
  /** The service's 409: the message, and whether `input` clashes with another record than `self`. */
  conflict?: { message: string; clashes(ctx: Ctx, owner: O, input: Input, self: R | null): boolean };
  /** Narrows the list by the resource's own filters. */
  filter?(ctx: Ctx, owner: O, list: readonly R[]): readonly R[];
  /** The record as the service renders it; `action` lets a list carry what a single read does not. */
  json(ctx: Ctx, owner: O, rec: R, action: Action): unknown;
  /** What a delete answers: 204 without a body, or 200 with the deleted record. */
  deleted: 204 | 200;
}

type Handler<P> = (ctx: Ctx, parent: P) => void;

/** The item routes' handlers, for a resource that also serves them at another path (the record named in the body). */
export interface PlainHandlers<P> {
  update: Handler<P>;
  remove: Handler<P>;
}

export function mountPlain<P, O, R>(res: PlainResource<P, O, R>): PlainHandlers<P> {
  const item = `${res.path}/:${res.key}`;
  const read = { auth: res.auth.read, job: res.job, premium: res.premium };
  const write = { auth: res.auth.write, job: res.job, premium: res.premium };
  const enter = (ctx: Ctx, parent: P, action: Action): O => {
    const allowed = res.may?.[action];
    if (allowed && !allowed(ctx, parent)) throw E.forbidden();
    return res.owner(ctx, parent, action);
  };
  const find = (ctx: Ctx, owner: O, action: Action): R => {
    const rec = res.records.find(ctx, owner, ctx.p[res.key]!, action);
    if (rec === undefined) throw res.notFound(owner);
    return rec;
  };
  const checkConflict = (ctx: Ctx, owner: O, input: Input, self: R | null) => {
    if (res.conflict?.clashes(ctx, owner, input, self)) throw new ApiError(409, { message: res.conflict.message });
  };

  res.scope.get(res.path, read, (ctx, parent) => {
    const owner = enter(ctx, parent, 'list');
    const all = res.records.list(ctx, owner);
    const list = res.filter ? res.filter(ctx, owner, all) : all;
    sendList(
      ctx,
      pageOf(ctx, list).map((rec) => res.json(ctx, owner, rec, 'list')),
    );
  });
  res.scope.get(item, read, (ctx, parent) => {
    const owner = enter(ctx, parent, 'read');
    sendJson(ctx, 200, res.json(ctx, owner, find(ctx, owner, 'read'), 'read'));
  });
  res.scope.post(res.path, write, (ctx, parent) => {
    const owner = enter(ctx, parent, 'create');
    const input = readFields(ctx, res.fields.create);
    checkConflict(ctx, owner, input, null);
    sendJson(ctx, 201, res.json(ctx, owner, res.records.add(ctx, owner, input), 'create'));
  });
  const update: Handler<P> = (ctx, parent) => {
    const owner = enter(ctx, parent, 'update');
    const rec = find(ctx, owner, 'update');
    const input = readFields(ctx, res.fields.update, res.fields.atLeastOne);
    checkConflict(ctx, owner, input, rec);
    sendJson(ctx, 200, res.json(ctx, owner, res.records.change(ctx, owner, rec, input), 'update'));
  };
  const remove: Handler<P> = (ctx, parent) => {
    const owner = enter(ctx, parent, 'delete');
    const rec = find(ctx, owner, 'delete');
    res.records.drop(ctx, owner, rec);
    sendJson(ctx, res.deleted, res.deleted === 204 ? null : res.json(ctx, owner, rec, 'list'));
  };
  res.scope.put(item, write, update);
  res.scope.delete(item, write, remove);
  return { update, remove };
}
