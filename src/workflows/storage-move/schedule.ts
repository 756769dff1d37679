import { ExitCode, SvcError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { getContainer, listContainersOnStorage, type Container } from '../../api/storage-containers.js';
import { FINAL_STATES, moveHistory, scheduleStorageMovesFrom, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import type { WorkflowHost } from '../shared/host.js';
import { explainForbidden, isUncertainFailure, KIND_NAMES, preflight, probeKinds, warnUnlisted, type KindProbe } from './kinds.js';
import { takeWatchSettings, type WatchRequest, type WatchSettings } from './settings.js';
import { KindTracker, type TrackedContainer, moveChangesTo } from './tracker.js';

const BULK_ATTEMPTS = 4;

export interface NamedContainer {
  kind: MoveKind;
  ref: string;
}

/** The containers named per kind; a kind that --kind leaves out is a usage error. */
export function checkNamedKinds(named: NamedContainer[], given: MoveKind[] | undefined): void {
  const excluded = given && named.find((n) => !given.includes(n.kind));
  if (!excluded || !given) return;
  const kind = KIND_NAMES[excluded.kind];
  throw new UsageError(
    `--${excluded.kind} names ${kind}, but --kind is ${given.map((k) => KIND_NAMES[k]).join(', ')}: drop --kind or make it ${kind} or all`,
  );
}

export interface SchedulePlan {
  request: WatchRequest;
  settings: WatchSettings;
  trackers: KindTracker[];
  /** The server's clock at the start, minus a second: `wait --since` with it counts this run's moves. */
  sinceIso: string;
  /** The service creates the moves (one POST per kind); otherwise the client schedules each container. */
  bulk: boolean;
  /** --max-in-flight: the client keeps that many moves running. */
  rolling: boolean;
  named: boolean;
}

function serverStart(host: WorkflowHost, probes: KindProbe[]): string {
  const date = probes.find((p) => p.date)?.date;
  const ms = date ? Date.parse(date) : Number.NaN;
  return new Date((Number.isNaN(ms) ? host.clock.now() - 60_000 : ms) - 1_000).toISOString();
}

/** Reads what is to move (listing or named containers) and builds one tracker per kind; changes nothing. */
export async function planSchedule(
  host: WorkflowHost,
  http: HttpClient,
  request: WatchRequest,
  named: NamedContainer[],
): Promise<SchedulePlan> {
  const settings = takeWatchSettings(request);
  await preflight(http, [request.from, request.to]);
  const probes = await probeKinds(host, http, request.kind);
  const rolling = request.maxInFlight !== undefined;
  const bulk = !named.length && !rolling;
  const trackers: KindTracker[] = [];
  for (const probe of probes) {
    const expected = named.length
      ? {
          containers: await resolveNamed(
            http,
            named.filter((n) => n.kind === probe.kind),
            request.from,
            request.to,
          ),
        }
      : await listContainersOnStorage(http, probe.kind, request.from).catch(explainForbidden);
    if (!expected && !bulk) {
      host.warn(`skipping ${KIND_NAMES[probe.kind]}: this instance cannot list them by storage, which single-container moves need`);
      continue;
    }
    const tracker = new KindTracker(
      probe.kind,
      {
        source: request.from,
        destination: request.to,
        maxRetries: settings.moveRetries,
        listed: Boolean(expected),
        growFromMoves: bulk,
        baselineMoveId: probe.newest?.id ?? 0,
        bulk,
        onMoveChange: moveChangesTo(host, probe.kind),
      },
      host.clock.now(),
    );
    for (const container of expected?.containers ?? []) tracker.expect(container);
    if (named.length) settleAlreadyMoved(host, tracker, expected?.containers ?? []);
    trackers.push(tracker);
  }
  return { request, settings, trackers, sinceIso: serverStart(host, probes), bulk, rolling, named: named.length > 0 };
}

/**
 * Starts the run: takes in the moves from the source that are already running (saying so; a
 * watching run follows them), then in bulk mode asks the service to move every container of each
 * kind that has any. Returns false when a listing showed every kind empty: nothing was scheduled.
 */
export async function startSchedule(host: WorkflowHost, http: HttpClient, plan: SchedulePlan, watching: boolean): Promise<boolean> {
  const { from, to } = plan.request;
  for (const tracker of plan.trackers) {
    if (!tracker.options.listed) warnUnlisted(host, tracker.kind);
    await takeInRunning(host, http, tracker, watching);
  }
  if (plan.named) return true;
  const empty = plan.trackers.filter((t) => t.options.listed && !t.containers.size);
  if (empty.length && empty.length === plan.trackers.length) host.info(`nothing to move: no repositories on ${from}`);
  else if (empty.length) host.info(`nothing to move for ${empty.map((t) => KIND_NAMES[t.kind]).join(', ')}: none on ${from}`);
  if (!plan.bulk) return empty.length < plan.trackers.length;
  for (const tracker of plan.trackers) {
    if (empty.includes(tracker)) continue;
    await scheduleBulk(host, http, tracker.kind, from, to);
    const count = tracker.options.listed ? `${tracker.containers.size} ` : 'all ';
    host.info(`scheduled moves of ${count}${KIND_NAMES[tracker.kind]} from ${from} to ${to} (the service creates them gradually)`);
  }
  return empty.length < plan.trackers.length;
}

/** Moves from the source not final yet, newest first, read back to the first page without one. */
async function runningMovesFrom(http: HttpClient, kind: MoveKind, source: string): Promise<StorageMove[]> {
  const running: StorageMove[] = [];
  for await (const page of moveHistory(http, kind, 100)) {
    const found = page.items.filter((m) => m.source_storage_name === source && !FINAL_STATES.has(m.state));
    running.push(...found);
    if (page.items.length && !found.length) break;
  }
  return running;
}

async function takeInRunning(host: WorkflowHost, http: HttpClient, tracker: KindTracker, watching: boolean): Promise<void> {
  const running = await runningMovesFrom(http, tracker.kind, tracker.options.source);
  const adopted = running.filter((move) => tracker.adoptRunning(move, host.clock.now())).length;
  if (!adopted) return;
  const [moves, them] = adopted === 1 ? [`1 ${tracker.kind} move`, 'it'] : [`${adopted} ${tracker.kind} moves`, 'them'];
  const what = watching ? `following ${them}` : `not scheduling ${them} again`;
  host.warn(`found ${moves} from ${tracker.options.source} already running, started before this run; ${what}`);
}

/** A bulk POST lost to a 5xx or a reset is sent again: a second bulk job skips what the first scheduled. */
async function scheduleBulk(host: WorkflowHost, http: HttpClient, kind: MoveKind, from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await scheduleStorageMovesFrom(http, kind, from, to);
    } catch (error) {
      if (attempt >= BULK_ATTEMPTS || !isUncertainFailure(error) || host.signal.aborted) explainForbidden(error);
      host.debug(`bulk ${kind} move request failed (${(error as Error).message}); sending it again`);
      await host.clock.sleep(500 * attempt, host.signal);
    }
  }
}

/** Named containers must be on --from (or already on --to); one elsewhere stops the run before anything is sent. */
async function resolveNamed(http: HttpClient, named: NamedContainer[], from: string, to: string): Promise<Container[]> {
  const containers: Container[] = [];
  for (const { kind, ref } of named) {
    const container = await getContainer(http, kind, ref);
    if (container.storage !== undefined && container.storage !== from && container.storage !== to) {
      throw new SvcError(
        `${kind} ${container.label} (${container.id}) is on ${container.storage}, not on ${from}: nothing was scheduled`,
        ExitCode.rejected,
      );
    }
    containers.push(container);
  }
  return containers;
}

function settleAlreadyMoved(host: WorkflowHost, tracker: KindTracker, containers: Container[]): void {
  for (const container of containers) {
    if (container.storage !== tracker.options.destination) continue;
    tracker.located(tracker.containers.get(container.id) as TrackedContainer, container.storage);
    host.info(`${tracker.kind} ${container.label} (${container.id}) is already on ${container.storage}; nothing to move`);
  }
}
