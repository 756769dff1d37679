import { ExitCode, SvcError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { getApplicationSettings } from '../../api/settings.js';
import { isMissingRoute, newestStorageMove, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import type { WorkflowHost } from '../shared/host.js';

export const KIND_NAMES: Record<MoveKind, string> = { project: 'projects', snippet: 'snippets', group: 'groups' };

/**
 * A POST the client cannot know the fate of: 5xx or a dropped connection (the HTTP layer never
 * repeats a POST). The move may exist, so the caller looks before posting again.
 */
export function isUncertainFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof SvcError && error.exitCode === ExitCode.failure;
}

/** Storage moves are administrator-only; say so instead of a bare 403. */
export function explainForbidden(error: unknown): never {
  if (error instanceof ApiError && error.status === 403) {
    throw new SvcError(`storage moves need an administrator's token: ${error.message}`, ExitCode.forbidden);
  }
  throw error;
}

/** Checks the token is an administrator's and the storages exist, before anything changes. */
export async function preflight(http: HttpClient, storages: string[]): Promise<void> {
  const settings = await getApplicationSettings(http).catch(explainForbidden);
  const configured = Object.keys(settings.repository_storages_weighted ?? {});
  if (!configured.length) return;
  const unknown = storages.filter((s) => !configured.includes(s));
  if (unknown.length) {
    throw new SvcError(
      `unknown storage ${unknown.map((s) => `'${s}'`).join(', ')} (this instance has: ${configured.join(', ')})`,
      ExitCode.rejected,
    );
  }
}

export interface KindProbe {
  kind: MoveKind;
  newest?: StorageMove;
  date?: string;
}

/**
 * One request per kind: the newest move (the boundary of this run) and whether the instance
 * offers the kind at all. Group moves are a paid-tier feature; with `--kind all` they are skipped
 * with a warning, with `--kind groups` it is an error.
 */
export async function probeKinds(host: WorkflowHost, http: HttpClient, kinds: MoveKind[]): Promise<KindProbe[]> {
  const probes: KindProbe[] = [];
  for (const kind of kinds) {
    try {
      probes.push({ kind, ...(await newestStorageMove(http, kind)) });
    } catch (error) {
      if (!isMissingRoute(error)) explainForbidden(error);
      const why = kind === 'group' ? 'group repository moves are a paid-tier feature' : 'the route does not exist on this version';
      if (kinds.length === 1) throw new SvcError(`this instance has no ${kind} storage moves (${why})`, ExitCode.notFound);
      host.warn(`skipping ${KIND_NAMES[kind]}: this instance has no ${kind} storage moves (${why})`);
    }
  }
  return probes;
}

/** Without a listing by storage, a container the bulk job skips leaves no trace the client could see. */
export function warnUnlisted(host: WorkflowHost, kind: MoveKind): void {
  host.warn(
    `${KIND_NAMES[kind]}: this instance cannot list them by storage; following the moves the bulk job creates (one it skips cannot be noticed)`,
  );
}
