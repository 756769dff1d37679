import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { writeList } from '../../output/writer.js';
import { getContainer, listContainersOnStorage, type Container } from '../../api/storage-containers.js';
import { MOVE_KINDS, scheduleStorageMove, scheduleStorageMovesFrom, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import { collect, withExamples, type Runtime } from '../../runtime.js';
import { projectRef } from '../shared/args.js';
import { sleep } from '../shared/wait.js';
import { watchVerifyReport } from './finish.js';
import {
  addWatchOptions,
  checkStorages,
  explainForbidden,
  isUncertainFailure,
  KIND_NAMES,
  kindOption,
  preflight,
  probeKinds,
  resumeCommand,
  takeWatchSettings,
  type KindProbe,
  type WatchFlags,
  warnUnlisted,
} from './options.js';
import { KindTracker, type TrackedContainer } from './tracker.js';
import { MOVE_COLUMNS, withContainer } from './list.js';

const BULK_ATTEMPTS = 4;

interface ScheduleOptions extends Omit<WatchFlags, 'kind'> {
  /** Absent: all kinds, or the kinds of the named containers. */
  kind?: MoveKind[];
  wait?: boolean;
  dryRun?: boolean;
  force?: boolean;
  project?: string[];
  snippet?: string[];
  group?: string[];
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('schedule')
    .description('Move every repository (or the named ones) from one storage to another, and optionally watch the moves to the end')
    .requiredOption('--from <storage>', 'source storage')
    .requiredOption('--to <storage>', 'destination storage')
    .addOption(kindOption('implicit'))
    .option('--project <project>', 'move this project only (id or path; repeatable)', collect)
    .option('--snippet <id>', 'move this snippet only (repeatable)', collect)
    .option('--group <group>', 'move this group only (id or path; repeatable)', collect)
    .option('--wait', 'watch the moves until each is final, retry failures, verify, and print a summary')
    .option('--dry-run', 'list what would move and change nothing')
    .option('--force', 'allow --from equal to --to');
  addWatchOptions(command);
  withExamples(command, [
    'svc storage-move schedule --from default --to storage2 --wait',
    'svc storage-move schedule --from default --to storage2 --kind projects --dry-run',
    'svc storage-move schedule --from default --to storage2 --max-in-flight 20',
    'svc storage-move schedule --from default --to storage2 --project my-group/app --wait -o json',
  ]);
  command.action(runtime.action<ScheduleOptions>((ctx, _args, opts) => run(ctx, opts)));
}

/** The containers named by --project/--snippet/--group; a kind that --kind leaves out is a usage error. */
function namedContainers(opts: ScheduleOptions): Array<{ kind: MoveKind; ref: string }> {
  const named = [
    ...(opts.project ?? []).map((ref) => ({ kind: 'project' as const, ref: projectRef(ref) })),
    ...(opts.snippet ?? []).map((ref) => ({ kind: 'snippet' as const, ref })),
    ...(opts.group ?? []).map((ref) => ({ kind: 'group' as const, ref: projectRef(ref) })),
  ];
  const given = opts.kind;
  const excluded = given && named.find((n) => !given.includes(n.kind));
  if (excluded) {
    const kind = KIND_NAMES[excluded.kind];
    throw new UsageError(`--${excluded.kind} names ${kind}, but --kind is ${given.map((k) => KIND_NAMES[k]).join(', ')}: drop --kind or make it ${kind} or all`);
  }
  return named;
}

/** The server's clock at the start (from `Date`, minus a second), so `wait --since` matches this run's moves. */
function serverStart(probes: KindProbe[]): string {
  const date = probes.find((p) => p.date)?.date;
  const ms = date ? Date.parse(date) : Number.NaN;
  return new Date((Number.isNaN(ms) ? Date.now() - 60_000 : ms) - 1_000).toISOString();
}

export async function run(ctx: Context, opts: ScheduleOptions): Promise<number> {
  const startedAt = Date.now();
  checkStorages(opts.from, opts.to, opts.force);
  const named = namedContainers(opts);
  const kinds = named.length ? [...new Set(named.map((n) => n.kind))] : opts.kind ?? [...MOVE_KINDS];
  const flags: WatchFlags = { ...opts, kind: kinds };
  const settings = takeWatchSettings(flags, startedAt);
  const http = await ctx.http({ requireToken: true });
  await preflight(http, [opts.from, opts.to]);
  const probes = await probeKinds(ctx, http, kinds);
  const sinceIso = serverStart(probes);
  const rolling = opts.maxInFlight !== undefined;
  const bulk = !named.length && !rolling;

  const trackers: KindTracker[] = [];
  for (const probe of probes) {
    const expected = named.length
      ? { containers: await resolveNamed(http, named.filter((n) => n.kind === probe.kind), opts.from, opts.to) }
      : await listContainersOnStorage(http, probe.kind, opts.from).catch(explainForbidden);
    if (!expected && !bulk) {
      ctx.warn(`skipping ${KIND_NAMES[probe.kind]}: this instance cannot list them by storage, which single-container moves need`);
      continue;
    }
    if (!expected && !opts.dryRun) warnUnlisted(ctx, probe.kind);
    const tracker = new KindTracker(
      probe.kind,
      {
        source: opts.from,
        destination: opts.to,
        maxRetries: settings.retries,
        listed: Boolean(expected),
        growFromMoves: bulk,
        baselineMoveId: probe.newest?.id ?? 0,
        bulk,
      },
      Date.now(),
    );
    for (const container of expected?.containers ?? []) tracker.expect(container);
    if (named.length) settleAlreadyMoved(ctx, tracker, expected?.containers ?? []);
    trackers.push(tracker);
  }

  if (opts.dryRun) return dryRun(ctx, trackers, opts.from);

  if (bulk) {
    for (const tracker of trackers) {
      await scheduleBulk(ctx, http, tracker.kind, opts.from, opts.to);
      const count = tracker.options.listed ? `${tracker.containers.size} ` : 'all ';
      ctx.info(`scheduled moves of ${count}${KIND_NAMES[tracker.kind]} from ${opts.from} to ${opts.to} (the service creates them gradually)`);
    }
  }
  if (!opts.wait && !rolling) {
    if (!bulk) return scheduleNamedNow(ctx, http, trackers, opts.to);
    ctx.info(`watch them with: ${resumeCommand(flags, settings, sinceIso)}`);
    return ExitCode.ok;
  }
  ctx.debug(`resume command: ${resumeCommand(flags, settings, sinceIso)}`);
  return watchVerifyReport(ctx, http, trackers, {
    flags,
    settings,
    sinceIso,
    startedAt,
    singles: named.length > 0,
    plan: { intervalMs: settings.intervalMs, deadline: settings.deadline, maxInFlight: opts.maxInFlight ?? Number.POSITIVE_INFINITY, rebuild: false },
  });
}

/** A bulk POST lost to a 5xx or a reset is sent again: a second bulk job skips what the first scheduled. */
async function scheduleBulk(ctx: Context, http: HttpClient, kind: MoveKind, from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await scheduleStorageMovesFrom(http, kind, from, to);
    } catch (error) {
      if (attempt >= BULK_ATTEMPTS || !isUncertainFailure(error) || ctx.signal.aborted) explainForbidden(error);
      ctx.debug(`bulk ${kind} move request failed (${(error as Error).message}); sending it again`);
      await sleep(500 * attempt, ctx.signal);
    }
  }
}

/** Named containers must be on --from (or already on --to); one elsewhere stops the run before anything is sent. */
async function resolveNamed(http: HttpClient, named: Array<{ kind: MoveKind; ref: string }>, from: string, to: string): Promise<Container[]> {
  const containers: Container[] = [];
  for (const { kind, ref } of named) {
    const container = await getContainer(http, kind, ref);
    if (container.storage !== undefined && container.storage !== from && container.storage !== to) {
      throw new SvcError(`${kind} ${container.label} (${container.id}) is on ${container.storage}, not on ${from}: nothing was scheduled`, ExitCode.rejected);
    }
    containers.push(container);
  }
  return containers;
}

function settleAlreadyMoved(ctx: Context, tracker: KindTracker, containers: Container[]): void {
  for (const container of containers) {
    if (container.storage !== tracker.options.destination) continue;
    tracker.located(tracker.containers.get(container.id) as TrackedContainer, container.storage);
    ctx.info(`${tracker.kind} ${container.label} (${container.id}) is already on ${container.storage}; nothing to move`);
  }
}

/** Lists what would move and counts it per kind; a kind the instance cannot list is named once, in that count line. */
async function dryRun(ctx: Context, trackers: KindTracker[], source: string): Promise<number> {
  const listed = trackers.filter((t) => t.options.listed);
  async function* rows() {
    for (const tracker of listed) {
      for (const c of tracker.containers.values()) yield { kind: KIND_NAMES[tracker.kind], id: c.id, name: c.label };
    }
  }
  const { count } = await writeList(ctx.stdout, ctx.output, rows(), ['kind', 'id', 'name']);
  const perKind = listed.map((t) => `${t.containers.size} ${KIND_NAMES[t.kind]}`).join(', ');
  const unlisted = trackers.filter((t) => !t.options.listed).map((t) => t.kind);
  const moving = `dry run: ${count} repositories would move${perKind ? ` (${perKind})` : ''}`;
  if (!unlisted.length) {
    ctx.info(`${moving}; nothing was changed`);
  } else {
    const every = unlisted.map((k) => `every ${k}`).join(' and ');
    ctx.warn(`${moving}, and ${every} on ${source}, which this instance cannot list by storage; nothing was changed`);
  }
  return ExitCode.ok;
}

async function scheduleNamedNow(ctx: Context, http: HttpClient, trackers: KindTracker[], destination: string): Promise<number> {
  async function* moves(): AsyncGenerator<StorageMove & { kind: string }> {
    for (const tracker of trackers) {
      for (const c of tracker.containers.values()) {
        if (c.outcome) continue;
        yield { kind: KIND_NAMES[tracker.kind], ...withContainer(await scheduleStorageMove(http, tracker.kind, c.id, destination)) };
      }
    }
  }
  await writeList(ctx.stdout, ctx.output, moves(), ['kind', ...MOVE_COLUMNS]);
  return ExitCode.ok;
}
