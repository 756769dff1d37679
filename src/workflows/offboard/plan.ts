import { listGroupProjectIds } from '../../api/groups.js';
import { checkedPages, compareIds, type RecordShape } from '../../api/records.js';
import { listSchedules } from '../../api/schedules.js';
import { listTokens } from '../../api/tokens.js';
import { listMemberships, type UserMembership } from '../../api/users.js';
import type { HttpClient, Page } from '../../http/client.js';

export interface OffboardUser {
  id: number;
  username: string;
  state: string;
}

export type StepKind = 'revoke-token' | 'take-schedule' | 'remove-membership' | 'block';

/** One write of the plan; `key` names it in the journal. */
export interface OffboardStep {
  key: string;
  kind: StepKind;
  /** What the step acts on, as a person reads it. */
  target: string;
  id: number;
  /** The project of a schedule. */
  project?: number;
  sourceType?: UserMembership['source_type'];
}

export interface OffboardPlan {
  user: OffboardUser;
  /** Tokens, then schedules, then memberships, then the block. */
  steps: OffboardStep[];
  /** Schedules the user owns that no step takes over (no one to give them to). */
  keptSchedules: string[];
}

const ID: RecordShape = { id: 'number' };

/** Every record of a listing, each checked to carry what a step acts on (`checkedPages`). */
async function all<T>(pages: AsyncGenerator<Page<T>>, where: string, shape: RecordShape): Promise<T[]> {
  const out: T[] = [];
  for await (const page of checkedPages(pages, where, shape)) out.push(...page.items);
  return out;
}

/**
 * What offboarding `user` takes, read from the service: their active personal and impersonation tokens, the
 * schedules they own in the projects their memberships reach, and their direct memberships (bar their own
 * projects, whose owner the service never removes). Schedules are taken over before memberships go,
 * as the memberships are how they are found: a rerun after a failure finds the ones still left.
 */
export async function planOffboard(http: HttpClient, user: OffboardUser, heir: string | undefined): Promise<OffboardPlan> {
  const key = (what: string) => `user ${user.id}: ${what}`;
  // Memberships first: only administrators may read them, and that refusal says so (the tokens' would say 401).
  const memberships = await all(listMemberships(http, user.id, { per_page: 100 }), `GET /users/${user.id}/memberships`, {
    source_id: 'number',
    source_type: 'string',
  });
  const tokenSet = { owner: { type: 'user', id: user.id }, kind: 'personal' } as const;
  const tokens = await all(listTokens(http, tokenSet, 'active', { per_page: 100 }), `GET /personal_access_tokens`, { id: 'number' });
  const ownPath = `/users/${user.id}/projects`;
  // Ids are told apart by their text: one past 2^53 is parsed as an object holding it (json.ts).
  const own = new Set(
    (await all(http.pages<{ id: number }>(ownPath, { simple: true, per_page: 100 }), `GET ${ownPath}`, ID)).map((p) => String(p.id)),
  );
  const projects = new Map(memberships.filter((m) => m.source_type === 'Project').map((m) => [String(m.source_id), m.source_id]));
  for (const group of memberships.filter((m) => m.source_type === 'Namespace')) {
    for (const p of await all(listGroupProjectIds(http, group.source_id), `GET /groups/${group.source_id}/projects`, ID))
      projects.set(String(p.id), p.id);
  }
  const schedules: OffboardStep[] = [];
  for (const project of [...projects.values()].sort(compareIds)) {
    for (const s of await all(listSchedules(http, project), `GET /projects/${project}/pipeline_schedules`, ID)) {
      if (String(s.owner?.id) !== String(user.id)) continue;
      const target = `schedule ${s.id} "${s.description}" of project ${project}`;
      schedules.push({ key: key(`take schedule ${s.id} of project ${project}`), kind: 'take-schedule', target, id: s.id, project });
    }
  }
  const steps: OffboardStep[] = [
    ...tokens.map((t): OffboardStep => ({
      key: key(`revoke token ${t.id}`),
      kind: 'revoke-token',
      target: `token ${t.name} (${t.id})`,
      id: t.id,
    })),
    ...(heir === undefined ? [] : schedules),
    ...memberships
      .filter((m) => !(m.source_type === 'Project' && own.has(String(m.source_id))))
      .map((m): OffboardStep => ({
        key: key(`remove membership of ${m.source_type} ${m.source_id}`),
        kind: 'remove-membership',
        target: `${m.source_type === 'Project' ? 'project' : 'group'} ${m.source_name} (${m.source_id})`,
        id: m.source_id,
        sourceType: m.source_type,
      })),
  ];
  if (user.state !== 'blocked' && user.state !== 'banned') {
    steps.push({ key: key('block'), kind: 'block', target: `user ${user.username} (${user.id})`, id: user.id });
  }
  return { user, steps, keptSchedules: heir === undefined ? schedules.map((s) => s.target) : [] };
}
