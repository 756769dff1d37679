import type { Context } from '../../context.js';
import type { HttpClient } from '../../http/client.js';
import { writeList } from '../../output/writer.js';
import { MOVE_KINDS, scheduleStorageMove, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import { collect } from '../../cli/parsers.js';
import { Deadline } from '../../workflows/shared/deadline.js';
import { followMoves } from '../../workflows/storage-move/finish.js';
import { KIND_NAMES } from '../../workflows/storage-move/kinds.js';
import { checkNamedKinds, planSchedule, startSchedule, type NamedContainer } from '../../workflows/storage-move/schedule.js';
import { resumeCommand, type WatchRequest } from '../../workflows/storage-move/settings.js';
import type { KindTracker } from '../../workflows/storage-move/tracker.js';
import { projectRef } from '../shared/args.js';
import { hostFor } from './shared/host.js';
import { WATCH_OPTIONS, checkStorages, kindOption, MOVE_RENAMES } from './shared/options.js';
import { MOVE_COLUMNS, withContainer } from './shared/records.js';
import { reportSummary } from './shared/report.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { type EventFlags, WaitEvents } from '../shared/events.js';

interface ScheduleOptions extends Omit<WatchRequest, 'kind'>, EventFlags {
  /** Absent: all kinds, or the kinds of the named containers. */
  kind?: MoveKind[];
  wait?: boolean;
  dryRun?: boolean;
  force?: boolean;
  project?: string[];
  snippet?: string[];
  group?: string[];
}

export const SCHEDULE = defineCommand<ScheduleOptions>({
  name: 'schedule',
  description: 'Move every repository (or the named ones) from one storage to another, and optionally watch the moves to the end',
  options: [
    { flags: '--from <storage>', help: 'source storage', required: true },
    { flags: '--to <storage>', help: 'destination storage', required: true },
    kindOption('implicit'),
    { flags: '--project <project>', help: 'move this project only (id or path; repeatable)', parse: collect },
    { flags: '--snippet <id>', help: 'move this snippet only (repeatable)', parse: collect },
    { flags: '--group <group>', help: 'move this group only (id or path; repeatable)', parse: collect },
    { flags: '--wait', help: 'watch the moves until each is final, retry failures, verify, and print a summary' },
    { flags: '--dry-run', help: 'list what would move and change nothing' },
    { flags: '--force', help: 'allow --from equal to --to' },
    ...WATCH_OPTIONS,
  ],
  renamed: MOVE_RENAMES,
  examples: [
    'svc storage-move schedule --from default --to storage2 --wait',
    'svc storage-move schedule --from default --to storage2 --kind projects --dry-run',
    'svc storage-move schedule --from default --to storage2 --max-in-flight 20',
    'svc storage-move schedule --from default --to storage2 --wait --wait-timeout 3600 --move-retries 5',
    'svc storage-move schedule --from default --to storage2 --project my-group/app --wait -o json',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

function namedContainers(opts: ScheduleOptions): NamedContainer[] {
  const named = [
    ...(opts.project ?? []).map((ref) => ({ kind: 'project' as const, ref: projectRef(ref) })),
    ...(opts.snippet ?? []).map((ref) => ({ kind: 'snippet' as const, ref })),
    ...(opts.group ?? []).map((ref) => ({ kind: 'group' as const, ref: projectRef(ref) })),
  ];
  checkNamedKinds(named, opts.kind);
  return named;
}

async function run(ctx: Context, opts: ScheduleOptions): Promise<void> {
  if (opts.events && !opts.wait && opts.maxInFlight === undefined) throw new UsageError('--events only applies with --wait');
  const events = new WaitEvents(ctx, Boolean(opts.events));
  const host = hostFor(ctx, undefined, events);
  const startedAt = host.clock.now();
  const deadline = Deadline.after(host.clock, opts.waitTimeout === undefined ? undefined : opts.waitTimeout * 1000);
  checkStorages(opts.from, opts.to, opts.force);
  const named = namedContainers(opts);
  const kind = named.length ? [...new Set(named.map((n) => n.kind))] : (opts.kind ?? [...MOVE_KINDS]);
  const http = await ctx.http({ requireToken: true });
  const plan = await planSchedule(host, http, { ...opts, kind }, named);
  if (opts.dryRun) return dryRun(ctx, plan.trackers, opts.from);
  const watching = Boolean(opts.wait) || plan.rolling;
  const scheduled = await startSchedule(host, http, plan, watching);
  const resume = resumeCommand(plan.request, plan.settings, plan.sinceIso);
  if (!watching) {
    if (!scheduled) return;
    if (!plan.bulk) return scheduleNamedNow(ctx, http, plan.trackers, opts.to);
    ctx.info(`watch them with: ${resume}`);
    return;
  }
  ctx.debug(`resume command: ${resume}`);
  const summary = await followMoves(host, http, plan.trackers, {
    request: plan.request,
    settings: plan.settings,
    sinceIso: plan.sinceIso,
    startedAt,
    singles: plan.named,
    deadline,
    plan: { intervalMs: plan.settings.intervalMs, maxInFlight: opts.maxInFlight ?? Number.POSITIVE_INFINITY, rebuild: false },
  });
  return reportSummary(ctx, summary, plan.named, events);
}

/** Lists what would move and counts it per kind; a kind the instance cannot list is named once, in that count line. */
async function dryRun(ctx: Context, trackers: KindTracker[], source: string): Promise<void> {
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
  const every = unlisted.map((k) => `every ${k}`).join(' and ');
  const cannotList = unlisted.length ? `, and ${every} on ${source}, which this instance cannot list by storage` : '';
  ctx.info(`${moving}${cannotList}; nothing was changed`);
}

/** Without --wait, named containers get their moves now; one already moving (followed, said above) gets none. */
async function scheduleNamedNow(ctx: Context, http: HttpClient, trackers: KindTracker[], destination: string): Promise<void> {
  async function* moves(): AsyncGenerator<StorageMove & { kind: string }> {
    for (const tracker of trackers) {
      for (const c of tracker.containers.values()) {
        if (c.outcome || c.move) continue;
        yield { kind: KIND_NAMES[tracker.kind], ...withContainer(await scheduleStorageMove(http, tracker.kind, c.id, destination)) };
      }
    }
  }
  await writeList(ctx.stdout, ctx.output, moves(), ['kind', ...MOVE_COLUMNS]);
}
