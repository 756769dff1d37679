import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { watchVerifyReport } from './finish.js';
import {
  addWatchOptions,
  checkStorages,
  explainForbidden,
  kindOption,
  parseSince,
  preflight,
  probeKinds,
  takeWatchSettings,
  type WatchFlags,
  warnUnlisted,
} from './options.js';
import { KindTracker } from './tracker.js';

interface WaitOptions extends WatchFlags {
  force?: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('wait')
    .description(
      'Watch every repository on --from until its move to --to is final, retry failures, then verify; rebuilds everything from the server (resumes an interrupted schedule --wait)',
    )
    .requiredOption('--from <storage>', 'source storage')
    .requiredOption('--to <storage>', 'destination storage')
    .addOption(kindOption('all'))
    .option('--since <time>', 'count the moves created from this time on (printed by schedule and on Ctrl-C)', parseSince)
    .option('--force', 'allow --from equal to --to');
  addWatchOptions(command);
  withExamples(command, [
    'svc storage-move wait --from default --to storage2',
    'svc storage-move wait --from default --to storage2 --kind projects --retries 5 --interval 10 --timeout 3600 -o json',
  ]);
  command.action(runtime.action<WaitOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: WaitOptions): Promise<number> {
  const startedAt = Date.now();
  checkStorages(opts.from, opts.to, opts.force);
  const settings = takeWatchSettings(opts, startedAt);
  const http = await ctx.http({ requireToken: true });
  await preflight(http, [opts.from, opts.to]);
  const probes = await probeKinds(ctx, http, opts.kind);
  const sinceMs = opts.since === undefined ? undefined : Date.parse(opts.since);
  const bulk = opts.maxInFlight === undefined;
  const trackers: KindTracker[] = [];
  for (const probe of probes) {
    const listing = await listContainersOnStorage(http, probe.kind, opts.from).catch(explainForbidden);
    if (!listing) warnUnlisted(ctx, probe.kind);
    const tracker = new KindTracker(
      probe.kind,
      {
        source: opts.from,
        destination: opts.to,
        maxRetries: settings.retries,
        listed: Boolean(listing),
        growFromMoves: !listing || sinceMs !== undefined,
        sinceMs,
        listingMoveId: probe.newest?.id ?? 0,
        bulk,
      },
      Date.now(),
    );
    for (const container of listing?.containers ?? []) tracker.expect(container);
    trackers.push(tracker);
  }
  if (sinceMs === undefined) {
    ctx.info(`totals count what is on ${opts.from} now; to count the moves that finished earlier too, pass the --since printed by schedule or on Ctrl-C`);
  }
  return watchVerifyReport(ctx, http, trackers, {
    flags: { ...opts, kind: probes.map((p) => p.kind) },
    settings,
    sinceIso: opts.since,
    startedAt,
    singles: false,
    plan: { intervalMs: settings.intervalMs, deadline: settings.deadline, maxInFlight: opts.maxInFlight ?? Number.POSITIVE_INFINITY, rebuild: true },
  });
}
