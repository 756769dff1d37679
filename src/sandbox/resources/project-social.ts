// Stars, forks and languages of a project (lib/api/projects.rb `star`, `unstar`, `starrers`, `forks`,
// `languages`; users.rb `starred_projects`; entities/user_star.rb). Starring answers 201 with the
// project, or `304 Not Modified` when the caller had already starred it (unstar: had not). A seeded
// project's `star_count` names as many seeded users as starrers, so the list and the count agree.
// Languages are the shares of the default branch's bytes by file extension, in percent with two
// decimals, largest first (README, "Stars, forks and languages").
import { can, canReadProject } from '../access.js';
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { strParam } from '../server/params.js';
import { sendJson, sendList, sendRawJson, sendText } from '../server/respond.js';
import type { Ctx } from '../server/context.js';
import { storeFor } from '../store/collection.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { defaultBranch } from '../store/default-branches.js';
import { forksOf } from './forks.js';
import type { Mounts } from './mounts.js';
import { projectJsonText } from '../entities/project.js';
import { userBasic } from '../entities/user.js';

const HOUR = 3_600_000;

/** Stars given through the API, by project: user id → when. */
const givenStars = storeFor(() => new Map<number, Map<number, number>>());

/** Users 1 and 2 hold the sandbox's tokens: they start with no stars, so starring works for them at once. */
const FIRST_STARRER = 3;

/** Seeded stars: as many distinct seeded users as the seed's `star_count`, an hour apart after creation. */
function seededStars(w: World, p: ProjectRec): Map<number, number> {
  const stars = new Map<number, number>();
  const pool = w.users.size - FIRST_STARRER + 1;
  if (!p.seeded || pool <= 0) return stars;
  const base = w.h(211, p.id);
  for (let k = 0; stars.size < Math.min(p.starCount, pool) && k < 4 * pool; k++) {
    const uid = ((base + k * 7) % pool) + FIRST_STARRER;
    if (w.users.get(uid) && !stars.has(uid)) stars.set(uid, p.createdAt + (stars.size + 1) * HOUR);
  }
  return stars;
}

/** A project's stars; `keep` when the caller changes them (a read of an untouched project stores nothing). */
function starsOf(w: World, p: ProjectRec, keep = false): Map<number, number> {
  const all = givenStars(w);
  let stars = all.get(p.id);
  if (!stars) {
    stars = seededStars(w, p);
    if (keep) all.set(p.id, stars);
  }
  return stars;
}

function sendProject(ctx: Ctx, p: ProjectRec): void {
  sendRawJson(ctx, 201, projectJsonText(ctx.world, p, { viewer: ctx.user, basic: false, statistics: false }));
}

/** File extension → language, for `languages`. */
const LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'TypeScript',
  js: 'JavaScript',
  rb: 'Ruby',
  py: 'Python',
  go: 'Go',
  java: 'Java',
  md: 'Markdown',
  yml: 'YAML',
  yaml: 'YAML',
  json: 'JSON',
  sh: 'Shell',
  css: 'CSS',
  html: 'HTML',
  c: 'C',
  rs: 'Rust',
};

function languages(w: World, p: ProjectRec): Record<string, number> {
  const bytes = new Map<string, number>();
  if (!w.repos.isEmpty(p.id)) {
    for (const [path, content] of w.repos.files(p.id, defaultBranch(w, p.id))) {
      const lang = LANGUAGES[path.split('.').pop()!.toLowerCase()];
      if (lang) bytes.set(lang, (bytes.get(lang) ?? 0) + content.length);
    }
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const shares = [...bytes].map(([lang, n]) => [lang, Math.round((n / total) * 10_000) / 100] as const);
  return Object.fromEntries(shares.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

export function mountProjectSocial({ root, project }: Mounts): void {
  project.post('/star', { auth: 'user' }, (ctx, p) => {
    const stars = starsOf(ctx.world, p, true);
    if (stars.has(ctx.user!.id)) return sendText(ctx, 304, '', 'application/json');
    stars.set(ctx.user!.id, ctx.world.now());
    p.starCount++;
    sendProject(ctx, p);
  });
  project.post('/unstar', { auth: 'user' }, (ctx, p) => {
    const stars = starsOf(ctx.world, p, true);
    if (!stars.delete(ctx.user!.id)) return sendText(ctx, 304, '', 'application/json');
    p.starCount--;
    sendProject(ctx, p);
  });
  project.get('/starrers', { auth: 'public' }, (ctx, p) => {
    const w = ctx.world;
    const search = strParam(ctx, 'search')?.toLowerCase();
    const list = [...starsOf(w, p)]
      .map(([uid, at]) => ({ user: w.users.get(uid), at }))
      .filter((s) => s.user && (!search || s.user.username.toLowerCase().includes(search) || s.user.name.toLowerCase().includes(search)))
      .sort((a, b) => b.at - a.at || a.user!.id - b.user!.id);
    sendList(
      ctx,
      pageOf(ctx, list).map((s) => ({ starred_since: iso(s.at), user: userBasic(w, s.user!) })),
    );
  });
  project.get('/forks', { auth: 'public' }, (ctx, p) => {
    const w = ctx.world;
    const visible = forksOf(w, p.id)
      .map((id) => w.projects.get(id))
      .filter((f): f is ProjectRec => !!f && canReadProject(w, ctx.user, f))
      .reverse();
    const page = pageOf(ctx, visible).map((f) => projectJsonText(w, f, { viewer: ctx.user, basic: false, statistics: false }));
    sendRawJson(ctx, 200, `[${page.join(',')}]`);
  });
  project.get('/languages', { auth: 'public' }, (ctx, p) => {
    if (!can(ctx.world, ctx.user, p, 'read_code')) throw E.forbidden();
    sendJson(ctx, 200, languages(ctx.world, p));
  });
  root.get('/users/:user_id/starred_projects', { auth: 'public' }, (ctx) => {
    const w = ctx.world;
    const user = w.findUser(ctx.p.user_id!);
    if (!user) throw E.notFound('User');
    const starred = w
      .visibleIds(ctx.user)
      .map((id) => w.projects.get(id)!)
      .filter((p) => p.starCount > 0 && starsOf(w, p).has(user.id));
    const page = pageOf(ctx, starred).map((p) => projectJsonText(w, p, { viewer: ctx.user, basic: false, statistics: false }));
    sendRawJson(ctx, 200, `[${page.join(',')}]`);
  });
}
