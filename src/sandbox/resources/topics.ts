// Project topics (lib/api/topics.rb, entities/projects/topic.rb, Projects::TopicsFinder): anyone may
// list and read them, an administrator creates, updates, merges and deletes them. The list is ordered
// by the number of non-private projects tagged, most first (then by id), `search` matches the name or
// title, `without_projects` keeps the unused ones. A topic's `total_projects_count` counts the
// non-private projects that carry its name; a name taken is the model's validation error, an unknown id
// `404 Not found` (README, "Topics").
import { E } from '../server/errors.js';
import { boolParam, intParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { mountPlain } from '../engine/plain.js';
import type { Input } from '../engine/fields.js';
import type { Ctx } from '../server/context.js';
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';

interface TopicRec {
  id: number;
  name: string;
  title: string;
  description: string | null;
}

const SEEDED = ['api', 'cli', 'tools', 'web', 'infra'];

const topicStore = storeFor(() => {
  const list: TopicRec[] = SEEDED.map((name, i) => ({ id: i + 1, name, title: name, description: null }));
  return { list, nextId: list.length + 1 };
});

/** Counts made once per request: a list would otherwise scan every project once per topic. */
const countsOfRequest = new WeakMap<Ctx, Map<string, number>>();

/** How many non-private projects carry each topic name (lower-cased), as of this request. */
function projectCounts(ctx: Ctx): Map<string, number> {
  const known = countsOfRequest.get(ctx);
  if (known) return known;
  const w = ctx.world;
  const counts = new Map<string, number>();
  for (const id of w.allIds) {
    const p = w.projects.get(id);
    if (!p || p.visibility === 'private') continue;
    for (const t of p.topics) counts.set(t.toLowerCase(), (counts.get(t.toLowerCase()) ?? 0) + 1);
  }
  countsOfRequest.set(ctx, counts);
  return counts;
}

function topicJson(t: TopicRec, counts: Map<string, number>): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    description: t.description,
    total_projects_count: counts.get(t.name.toLowerCase()) ?? 0,
    organization_id: 1,
    avatar_url: null,
  };
}

function checkName(w: World, name: string, self: TopicRec | null): void {
  const taken = topicStore(w).list.some((t) => t !== self && t.name.toLowerCase() === name.toLowerCase());
  if (taken) throw E.validation({ name: ['has already been taken'] });
}

function findTopic(w: World, key: string): TopicRec | undefined {
  return /^\d+$/.test(key) ? topicStore(w).list.find((t) => t.id === Number(key)) : undefined;
}

export function mountTopics({ root }: Mounts): void {
  mountPlain<void, void, TopicRec>({
    scope: root,
    path: '/topics',
    key: 'topic_id',
    auth: { read: 'public', write: 'admin' },
    owner: () => undefined,
    fields: {
      create: { name: { type: 'string', required: true }, title: { type: 'string', required: true }, description: { type: 'string' } },
      update: { name: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' } },
    },
    records: {
      list: (ctx) => {
        const counts = projectCounts(ctx);
        return [...topicStore(ctx.world).list].sort(
          (a, b) => (counts.get(b.name.toLowerCase()) ?? 0) - (counts.get(a.name.toLowerCase()) ?? 0) || a.id - b.id,
        );
      },
      find: (ctx, _o, key) => findTopic(ctx.world, key),
      add: (ctx, _o, input: Input) => {
        const store = topicStore(ctx.world);
        checkName(ctx.world, String(input.name), null);
        const rec: TopicRec = {
          id: store.nextId++,
          name: String(input.name),
          title: String(input.title),
          description: (input.description as string) ?? null,
        };
        store.list.push(rec);
        return rec;
      },
      change: (ctx, _o, rec, input: Input) => {
        if (input.name !== undefined) checkName(ctx.world, String(input.name), rec);
        if (input.name !== undefined) rec.name = String(input.name);
        if (input.title !== undefined) rec.title = String(input.title);
        if (input.description !== undefined) rec.description = String(input.description);
        return rec;
      },
      drop: (ctx, _o, rec) => {
        const store = topicStore(ctx.world);
        store.list.splice(store.list.indexOf(rec), 1);
      },
    },
    filter: (ctx, _o, list) => {
      const search = strParam(ctx, 'search')?.toLowerCase();
      const unused = boolParam(ctx, 'without_projects');
      const counts = unused ? projectCounts(ctx) : null;
      return list.filter(
        (t) =>
          (!search || t.name.toLowerCase().includes(search) || t.title.toLowerCase().includes(search)) &&
          (!counts || !counts.get(t.name.toLowerCase())),
      );
    },
    notFound: () => E.findNotFound(),
    json: (ctx, _o, rec) => topicJson(rec, projectCounts(ctx)),
    deleted: 204,
  });

  // Merging moves every project's source topic to the target and deletes the source.
  root.post('/topics/merge', { auth: 'admin' }, (ctx) => {
    const sourceId = intParam(ctx, 'source_topic_id');
    const targetId = intParam(ctx, 'target_topic_id');
    const missing = [sourceId === undefined && 'source_topic_id', targetId === undefined && 'target_topic_id'].filter(Boolean) as string[];
    if (missing.length) throw E.missing(...missing);
    const w = ctx.world;
    const source = findTopic(w, String(sourceId));
    const target = findTopic(w, String(targetId));
    if (!source || !target) throw E.findNotFound();
    if (source === target) throw E.badRequest('The source topic and the target topic are identical.');
    mergeInto(ctx, source, target);
    countsOfRequest.delete(ctx);
    sendJson(ctx, 201, topicJson(target, projectCounts(ctx)));
  });
}

function mergeInto(ctx: Ctx, source: TopicRec, target: TopicRec): void {
  const w = ctx.world;
  const from = source.name.toLowerCase();
  for (const id of w.allIds) {
    const p = w.projects.get(id);
    if (!p || !p.topics.some((t) => t.toLowerCase() === from)) continue;
    const rest = p.topics.filter((t) => t.toLowerCase() !== from);
    p.topics = rest.some((t) => t.toLowerCase() === target.name.toLowerCase()) ? rest : [...rest, target.name];
  }
  const store = topicStore(w);
  store.list.splice(store.list.indexOf(source), 1);
}
