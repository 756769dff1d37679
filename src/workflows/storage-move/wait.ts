import type { HttpClient } from '../../http/client.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import type { WorkflowHost } from '../shared/host.js';
import { explainForbidden, preflight, probeKinds, warnUnlisted } from './kinds.js';
import { takeWatchSettings, type WatchRequest, type WatchSettings } from './settings.js';
import { KindTracker, moveChangesTo } from './tracker.js';

export interface WaitPlan {
  /** The kinds the instance offers, of those asked for. */
  request: WatchRequest;
  settings: WatchSettings;
  trackers: KindTracker[];
}

/** Rebuilds a run from the server alone: what is on the source now, and with --since every move after it. */
export async function planWait(host: WorkflowHost, http: HttpClient, request: WatchRequest): Promise<WaitPlan> {
  const settings = takeWatchSettings(request);
  await preflight(http, [request.from, request.to]);
  const probes = await probeKinds(host, http, request.kind);
  const sinceMs = request.since === undefined ? undefined : Date.parse(request.since);
  const bulk = request.maxInFlight === undefined;
  const trackers: KindTracker[] = [];
  for (const probe of probes) {
    const listing = await listContainersOnStorage(http, probe.kind, request.from).catch(explainForbidden);
    if (!listing) warnUnlisted(host, probe.kind);
    const tracker = new KindTracker(
      probe.kind,
      {
        source: request.from,
        destination: request.to,
        maxRetries: settings.moveRetries,
        listed: Boolean(listing),
        growFromMoves: !listing || sinceMs !== undefined,
        sinceMs,
        listingMoveId: probe.newest?.id ?? 0,
        bulk,
        onMoveChange: moveChangesTo(host, probe.kind),
      },
      host.clock.now(),
    );
    for (const container of listing?.containers ?? []) tracker.expect(container);
    trackers.push(tracker);
  }
  if (sinceMs === undefined) {
    host.info(
      `totals count what is on ${request.from} now; to count the moves that finished earlier too, pass the --since printed by schedule or on Ctrl-C`,
    );
  }
  return { request: { ...request, kind: probes.map((p) => p.kind) }, settings, trackers };
}
