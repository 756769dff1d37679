// Broadcast messages (lib/api/admin/broadcast_messages.rb, entities/system/broadcast_message.rb,
// app/models/system/broadcast_message.rb): anyone lists (newest first) and reads them, administrators
// create (201), update (200) and delete (204). `starts_at` defaults to now and `ends_at` to an hour later;
// `active` is computed on the sandbox clock (started and not ended).
import { mountPlain, type Records } from '../engine/plain.js';
import type { Input } from '../engine/fields.js';
import type { Ctx } from '../server/context.js';
import { E } from '../server/errors.js';
import { listParam, timeParam } from '../server/params.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import type { Mounts } from './mounts.js';

const TARGET_LEVELS = [10, 20, 30, 40, 50];
const THEMES = ['indigo', 'light-indigo', 'blue', 'light-blue', 'green', 'light-green', 'red', 'light-red', 'dark', 'light'] as const;
const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

interface MessageRec {
  id: number;
  message: string;
  startsAt: number;
  endsAt: number;
  color: string;
  font: string;
  targetAccessLevels: number[];
  targetPath: string | null;
  broadcastType: 'banner' | 'notification';
  theme: string;
  dismissable: boolean | null;
}

const store = storeFor(() => ({ list: [] as MessageRec[], nextId: 1 }));

const FIELDS = {
  message: { type: 'string' },
  starts_at: { type: 'string' },
  ends_at: { type: 'string' },
  color: { type: 'string' },
  font: { type: 'string' },
  target_path: { type: 'string' },
  broadcast_type: { type: 'string', values: ['banner', 'notification'] },
  dismissable: { type: 'boolean' },
  theme: { type: 'string', values: THEMES },
} as const;

/** The parameters Grape types beyond the declared fields: the times and the target levels. */
function typed(ctx: Ctx): Partial<Pick<MessageRec, 'startsAt' | 'endsAt' | 'targetAccessLevels'>> {
  const out: Partial<Pick<MessageRec, 'startsAt' | 'endsAt' | 'targetAccessLevels'>> = {};
  const startsAt = timeParam(ctx, 'starts_at');
  const endsAt = timeParam(ctx, 'ends_at');
  if (startsAt !== undefined) out.startsAt = startsAt;
  if (endsAt !== undefined) out.endsAt = endsAt;
  const levels = listParam(ctx, 'target_access_levels');
  if (levels !== undefined) {
    const numbers = levels.map((l) => Number(l));
    if (numbers.some((n) => !Number.isInteger(n))) throw E.invalid('target_access_levels');
    if (numbers.some((n) => !TARGET_LEVELS.includes(n))) throw E.notValid('target_access_levels');
    out.targetAccessLevels = numbers;
  }
  return out;
}

/** The model's validations, in one `render_validation_error!` body. */
function validated(rec: MessageRec): MessageRec {
  const errors: Record<string, string[]> = {};
  if (rec.message.trim() === '') errors.message = ["can't be blank"];
  for (const [name, value] of [
    ['color', rec.color],
    ['font', rec.font],
  ] as const) {
    if (value !== '' && !COLOR.test(value)) errors[name] = ['must be a valid color code'];
  }
  if (Object.keys(errors).length > 0) throw E.validation(errors);
  return rec;
}

function applied(ctx: Ctx, rec: MessageRec, input: Input): MessageRec {
  const next = { ...rec, ...typed(ctx) };
  if (input.message !== undefined) next.message = String(input.message);
  if (input.color !== undefined) next.color = String(input.color);
  if (input.font !== undefined) next.font = String(input.font);
  if (input.target_path !== undefined) next.targetPath = String(input.target_path);
  if (input.broadcast_type !== undefined) next.broadcastType = input.broadcast_type as MessageRec['broadcastType'];
  if (input.theme !== undefined) next.theme = String(input.theme);
  if (input.dismissable !== undefined) next.dismissable = Boolean(input.dismissable);
  return validated(next);
}

function messageJson(w: World, m: MessageRec): Record<string, unknown> {
  const now = w.now();
  return {
    id: m.id,
    message: m.message,
    starts_at: iso(m.startsAt),
    ends_at: iso(m.endsAt),
    color: m.color,
    font: m.font,
    target_access_levels: [...m.targetAccessLevels],
    target_path: m.targetPath,
    broadcast_type: m.broadcastType,
    theme: m.theme,
    dismissable: m.dismissable,
    active: m.startsAt <= now && m.endsAt >= now,
  };
}

const records: Records<void, MessageRec> = {
  list: (ctx) => [...store(ctx.world).list].reverse(),
  find(ctx, _owner, key) {
    if (!/^\d+$/.test(key)) throw E.invalid('id');
    return store(ctx.world).list.find((m) => m.id === Number(key));
  },
  add(ctx, _owner, input) {
    const s = store(ctx.world);
    const now = ctx.world.now();
    const fresh: MessageRec = {
      id: s.nextId,
      message: '',
      startsAt: now,
      endsAt: now + 3_600_000,
      color: '#E1D8FF',
      font: '#FFFFFF',
      targetAccessLevels: [],
      targetPath: null,
      broadcastType: 'banner',
      theme: 'indigo',
      dismissable: null,
    };
    const rec = applied(ctx, fresh, input);
    s.nextId++;
    s.list.push(rec);
    return rec;
  },
  change(ctx, _owner, rec, input) {
    const next = applied(ctx, rec, input);
    const list = store(ctx.world).list;
    list[list.indexOf(rec)] = next;
    return next;
  },
  drop(ctx, _owner, rec) {
    const list = store(ctx.world).list;
    list.splice(list.indexOf(rec), 1);
  },
};

export function mountBroadcastMessages({ root }: Mounts): void {
  mountPlain<void, void, MessageRec>({
    scope: root,
    path: '/broadcast_messages',
    key: 'id',
    auth: { read: 'public', write: 'admin' },
    owner: () => undefined,
    fields: { create: { ...FIELDS, message: { type: 'string', required: true } }, update: FIELDS },
    records,
    notFound: () => E.findNotFound(),
    json: (ctx, _owner, rec) => messageJson(ctx.world, rec),
    deleted: 204,
  });
}
