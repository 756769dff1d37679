import type { HttpClient } from '../../http/client.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import { moveContainer, moveHistory, ON_DESTINATION_STATES, type MoveKind } from '../../api/storage-moves.js';
import type { WorkflowHost } from '../shared/host.js';
import { explainForbidden, KIND_NAMES, preflight, probeKinds } from './kinds.js';

export interface Remaining {
  kind: string;
  id: number;
  name: string;
  reason: string;
}

/** What remains on a storage, per kind: from a listing by storage, or else from each container's latest move. */
export async function findRemaining(
  host: WorkflowHost,
  http: HttpClient,
  from: string,
  kinds: MoveKind[],
  since: string | undefined,
): Promise<Remaining[]> {
  await preflight(http, [from]);
  const probes = await probeKinds(host, http, kinds);
  const remaining: Remaining[] = [];
  for (const { kind } of probes) {
    const listing = await listContainersOnStorage(http, kind, from).catch(explainForbidden);
    if (listing) {
      remaining.push(...listing.containers.map((c) => ({ kind: KIND_NAMES[kind], id: c.id, name: c.label, reason: 'on source' })));
    } else {
      host.info(`${KIND_NAMES[kind]}: cannot be listed by storage on this instance; checking their latest moves instead`);
      remaining.push(...(await unmovedByHistory(http, kind, from, since)));
    }
  }
  return remaining;
}

/**
 * Without a listing by storage, a container is known to be on the source when its newest move
 * ended there, or left from there without reaching the destination (failed or still running).
 */
async function unmovedByHistory(http: HttpClient, kind: MoveKind, source: string, since: string | undefined): Promise<Remaining[]> {
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  const seen = new Set<number>();
  const out: Remaining[] = [];
  for await (const page of moveHistory(http, kind, 100)) {
    for (const move of page.items) {
      if (sinceMs !== undefined && Date.parse(move.created_at) < sinceMs) return out;
      const ref = moveContainer(move);
      if (!ref || seen.has(ref.id)) continue;
      seen.add(ref.id);
      const landed = ON_DESTINATION_STATES.has(move.state);
      const onSource = landed ? move.destination_storage_name === source : move.source_storage_name === source;
      if (onSource) out.push({ kind: KIND_NAMES[kind], id: ref.id, name: ref.label, reason: `move ${move.id} ${move.state}` });
    }
  }
  return out;
}
