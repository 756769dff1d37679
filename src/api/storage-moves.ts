import { ExitCode, SvcError } from '../errors.js';
import { ApiError } from '../http/api-error.js';
import type { HttpClient, Page } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import { parseLinkHeader } from '../http/link.js';
import { trackableId } from './records.js';

/** The three kinds of repository the service moves between storages (reference §1.1). */
export type MoveKind = 'project' | 'snippet' | 'group';
export const MOVE_KINDS: MoveKind[] = ['project', 'snippet', 'group'];

export type MoveState = 'initial' | 'scheduled' | 'started' | 'replicated' | 'finished' | 'failed' | 'cleanup failed';
export const FINAL_STATES: ReadonlySet<string> = new Set(['finished', 'failed', 'cleanup failed']);
/** The repository is on the destination from `replicated` on. */
export const ON_DESTINATION_STATES: ReadonlySet<string> = new Set(['replicated', 'finished', 'cleanup failed']);

export interface StorageMove {
  id: number;
  created_at: string;
  state: MoveState;
  source_storage_name: string;
  destination_storage_name: string;
  error_message?: string | null;
  project?: { id: number; path_with_namespace?: string; name?: string };
  snippet?: { id: number; title?: string };
  group?: { id: number; name?: string; web_url?: string };
}

const COLLECTION: Record<MoveKind, string> = {
  project: '/project_repository_storage_moves',
  snippet: '/snippet_repository_storage_moves',
  group: '/group_repository_storage_moves',
};

function containerMovesPath(kind: MoveKind, container: string | number): string {
  if (kind === 'project') return apiPath`/projects/${container}/repository_storage_moves`;
  if (kind === 'snippet') return apiPath`/snippets/${container}/repository_storage_moves`;
  return apiPath`/groups/${container}/repository_storage_moves`;
}

/** A move whose own id and container's id can be tracked (see `trackableId`); other shapes pass as they are. */
export function trackableMove<T>(move: T, where: string): T {
  if (move === null || typeof move !== 'object') return move;
  const record = move as Partial<StorageMove>;
  trackableId(record.id, where);
  for (const container of [record.project, record.snippet, record.group]) if (container) trackableId(container.id, where);
  return move;
}

export function moveContainer(move: StorageMove): { id: number; label: string } | undefined {
  if (move.project) return { id: move.project.id, label: move.project.path_with_namespace ?? String(move.project.id) };
  if (move.snippet) return { id: move.snippet.id, label: move.snippet.title ?? String(move.snippet.id) };
  if (move.group) return { id: move.group.id, label: move.group.name ?? String(move.group.id) };
  return undefined;
}

/** Pages in a row without a record not read before, past which a move list is taken to repeat itself: each one means a page of moves was added meanwhile. */
const MAX_STALE_PAGES = 1_000;

/**
 * Every move of a kind, newest first (the service orders by `created_at DESC`, offset pages), each record once (by id). A bulk job adds moves at the front
 * while the list is read, so page N+1 can hold records page N held: that shift is not a loop. Pages
 * are read by number up to where the server says the list ends; one run of pages that only repeat
 * what was read (a list that never ends) stops the walk with one line.
 */
export async function* moveHistory(
  http: HttpClient,
  kind: MoveKind,
  perPage: number,
  // A listing prints ids past 2^53 exactly; only a run that follows moves needs ids it can key by.
  tracked = true,
): AsyncGenerator<Page<StorageMove>> {
  const seen = new Set<number>();
  let stale = 0;
  for (let page = 1; ; page++) {
    const res = await http.request<StorageMove[]>({ path: COLLECTION[kind], query: { page, per_page: perPage } });
    if (!Array.isArray(res.data)) throw new SvcError(`GET ${COLLECTION[kind]} did not return a list of moves`, ExitCode.failure);
    if (tracked) for (const move of res.data) trackableMove(move, `GET ${COLLECTION[kind]}`);
    const items = res.data.filter((move) => !seen.has(move.id));
    for (const move of items) seen.add(move.id);
    stale = items.length ? 0 : stale + 1;
    if (stale > MAX_STALE_PAGES) {
      throw new SvcError(
        `GET ${COLLECTION[kind]} kept returning moves already read for ${MAX_STALE_PAGES} pages; stopping`,
        ExitCode.failure,
      );
    }
    const hasNext = res.data.length > 0 && Boolean(res.headers['x-next-page'] || parseLinkHeader(res.headers.link).next);
    yield { items, hasNext, headers: res.headers, url: `${COLLECTION[kind]}?page=${page}&per_page=${perPage}` };
    if (!hasNext) return;
  }
}

export async function getStorageMove(http: HttpClient, kind: MoveKind, moveId: number | string): Promise<StorageMove> {
  return await http.record<StorageMove>({ path: COLLECTION[kind] + apiPath`/${moveId}` });
}

/** The newest move of a kind, or undefined when there is none; also tells whether the routes exist. */
export async function newestStorageMove(http: HttpClient, kind: MoveKind): Promise<{ newest?: StorageMove; date?: string }> {
  const res = await http.request<StorageMove[]>({ path: COLLECTION[kind], query: { per_page: 1 } });
  return { newest: Array.isArray(res.data) ? res.data[0] : undefined, date: res.headers.date };
}

/** Bulk: the service answers 202 and creates the moves gradually in the background. */
export async function scheduleStorageMovesFrom(http: HttpClient, kind: MoveKind, source: string, destination: string): Promise<void> {
  await http.request({
    method: 'POST',
    path: COLLECTION[kind],
    json: { source_storage_name: source, destination_storage_name: destination },
  });
}

export async function scheduleStorageMove(
  http: HttpClient,
  kind: MoveKind,
  container: string | number,
  destination: string,
): Promise<StorageMove> {
  const path = containerMovesPath(kind, container);
  return trackableMove(
    await http.record<StorageMove>({ method: 'POST', path, json: { destination_storage_name: destination } }),
    `POST ${path}`,
  );
}

export async function latestMoveOf(http: HttpClient, kind: MoveKind, container: string | number): Promise<StorageMove | undefined> {
  const res = await http.request<StorageMove[]>({ path: containerMovesPath(kind, container), query: { per_page: 1 } });
  return Array.isArray(res.data) ? trackableMove(res.data[0], `GET ${containerMovesPath(kind, container)}`) : undefined;
}

/** 400 `{"message":{"project":["is read-only"]}}`: the container is already being moved. */
export function isAlreadyMoving(error: unknown, kind: MoveKind): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  if (!message || typeof message !== 'object') return false;
  const reasons = (message as Record<string, unknown>)[kind];
  return Array.isArray(reasons) && reasons.some((r) => /read-only/i.test(String(r)));
}

/** Grape's catch-all `{"error":"404 Not Found"}`: the route does not exist on this instance (tier or version). */
export function isMissingRoute(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 404) return false;
  const body = error.body as { error?: unknown } | undefined;
  return typeof body?.error === 'string';
}
