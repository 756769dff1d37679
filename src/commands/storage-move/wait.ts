import type { Context } from '../../context.js';
import { Deadline } from '../../workflows/shared/deadline.js';
import { followMoves } from '../../workflows/storage-move/finish.js';
import type { WatchRequest } from '../../workflows/storage-move/settings.js';
import { planWait } from '../../workflows/storage-move/wait.js';
import { hostFor } from './shared/host.js';
import { WATCH_OPTIONS, checkStorages, kindOption, parseSince, MOVE_RENAMES } from './shared/options.js';
import { reportSummary } from './shared/report.js';
import { defineCommand } from '../../cli/spec.js';
import { type EventFlags, WaitEvents } from '../shared/events.js';

interface WaitOptions extends WatchRequest, EventFlags {
  force?: boolean;
}

export const WAIT = defineCommand<WaitOptions>({
  name: 'wait',
  description:
    'Watch every repository on --from until its move to --to is final, retry failures, then verify; rebuilds everything from the server (resumes an interrupted schedule --wait)',
  options: [
    { flags: '--from <storage>', help: 'source storage', required: true },
    { flags: '--to <storage>', help: 'destination storage', required: true },
    kindOption('all'),
    {
      flags: '--since <time>',
      help: 'count the moves created from this time on (printed by schedule, on Ctrl-C and at --wait-timeout)',
      parse: parseSince,
    },
    { flags: '--force', help: 'allow --from equal to --to' },
    ...WATCH_OPTIONS,
  ],
  renamed: MOVE_RENAMES,
  examples: [
    'svc storage-move wait --from default --to storage2',
    'svc storage-move wait --from default --to storage2 --kind projects --move-retries 5 --interval 10 --wait-timeout 3600 -o json',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: WaitOptions): Promise<void> {
  const events = new WaitEvents(ctx, Boolean(opts.events));
  const host = hostFor(ctx, undefined, events);
  const startedAt = host.clock.now();
  const deadline = Deadline.after(host.clock, opts.waitTimeout === undefined ? undefined : opts.waitTimeout * 1000);
  checkStorages(opts.from, opts.to, opts.force);
  const http = await ctx.http({ requireToken: true });
  const plan = await planWait(host, http, opts);
  const summary = await followMoves(host, http, plan.trackers, {
    request: plan.request,
    settings: plan.settings,
    sinceIso: opts.since,
    startedAt,
    singles: false,
    deadline,
    plan: { intervalMs: plan.settings.intervalMs, maxInFlight: opts.maxInFlight ?? Number.POSITIVE_INFINITY, rebuild: true },
  });
  return reportSummary(ctx, summary, false, events);
}
