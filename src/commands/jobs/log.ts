import { StringDecoder } from 'node:string_decoder';
import type { Context } from '../../context.js';
import { getJob, getJobLog, streamJobLog } from '../../api/jobs.js';
import { intOption, secondsOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { ExitCode, IncompleteError, InterruptedError, UsageError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { write } from '../../output/writer.js';
import { followLog, type FollowResult } from '../../workflows/pipelines/follow-log.js';
import { lastLines, LogFilter, type LogMode } from '../../workflows/pipelines/log-filter.js';
import { systemClock } from '../../workflows/shared/clock.js';
import { Deadline } from '../../workflows/shared/deadline.js';
import { idDigits, PROJECT_ARGUMENT, projectRef } from '../shared/args.js';
import { EVENTS_OPTION, type EventFlags, WaitEvents } from '../shared/events.js';

const DEFAULT_LOG_INTERVAL_S = 2;

interface LogOptions extends EventFlags {
  tail?: number;
  follow?: boolean;
  raw?: boolean;
  interval?: number;
  waitTimeout?: number;
}

export const LOG = defineCommand<LogOptions>({
  name: 'log',
  description: "Print a job's log to stdout; --follow keeps printing what it adds until the job ends (exit 0 success, 8 otherwise)",
  args: [
    { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef },
    { name: 'job-id', help: 'job id (as in the job URL)', parse: (value) => idDigits('job id', value) },
  ],
  options: [
    {
      flags: '--tail <lines>',
      help: 'only the last N lines (with --follow: of what exists when it starts)',
      parse: intOption('--tail', 0),
    },
    { flags: '--follow', help: 'keep reading until the job ends; the exit code is the job result' },
    { flags: '--raw', help: "keep the runner's colours and section markers even when stdout is not a terminal" },
    {
      flags: '--interval <seconds>',
      help: `with --follow: seconds between reads (default ${DEFAULT_LOG_INTERVAL_S}); doubles while nothing new comes, up to 30`,
      parse: secondsOption('--interval', 0.01, 3600),
    },
    {
      flags: '--wait-timeout <seconds>',
      help: 'with --follow: give up waiting after this many seconds (exit 8; the job keeps running); default: no limit',
      parse: secondsOption('--wait-timeout', 0.05),
    },
    { ...EVENTS_OPTION, help: `with --follow: ${EVENTS_OPTION.help}; the log comes as {"type":"log","id","text"} lines` },
  ],
  notes:
    "On a terminal the runner's colours and collapsible-section markers are kept (other control characters are shown as escapes); " +
    'elsewhere only text is printed (every escape sequence and control character but tab, newline and carriage return removed) ' +
    'unless --raw is given. The log has no other form: -o is refused (exit 2).',
  examples: [
    'svc jobs log acme/platform/api 1234 --tail 50',
    'svc jobs log $CI_PROJECT_ID 1234 --follow > build.log',
    'svc jobs log acme/platform/api 1234 --raw | less -R',
  ],
  run: (ctx, [project, jobId], opts) => run(ctx, project as string, jobId as string, opts),
});

async function run(ctx: Context, project: string, jobId: string, opts: LogOptions): Promise<void> {
  const followOnly = [
    opts.interval !== undefined && '--interval',
    opts.waitTimeout !== undefined && '--wait-timeout',
    opts.events && '--events',
  ].find(Boolean);
  if (followOnly && !opts.follow) throw new UsageError(`${followOnly} applies only with --follow`);
  // The log is text as the runner wrote it: a record of it would be one string, so -o is refused rather than ignored.
  const { output, fields } = ctx.globals;
  if (output) throw new UsageError(`jobs log prints the log's text (with --follow --events, JSON lines); -o ${output} has no form for it`);
  if (fields && !opts.events) throw new UsageError('--fields applies to jobs log only with --follow --events (to the result line)');
  const http = await ctx.http();
  const mode: LogMode = ctx.io.isTTY.stdout ? 'terminal' : opts.raw ? 'raw' : 'plain';
  const filter = new LogFilter(mode);
  const events = new WaitEvents(ctx, Boolean(opts.events));
  const text = new StringDecoder('utf8');
  const emit = (bytes: Buffer) => {
    if (!events.enabled) return write(ctx.stdout, bytes);
    const decoded = text.write(bytes);
    return decoded ? events.line({ type: 'log', id: Number(jobId), text: decoded }) : Promise.resolve();
  };
  const out = (bytes: Buffer) => emit(filter.push(bytes));
  if (!opts.follow) {
    if (opts.tail !== undefined) await out(lastLines(await getJobLog(http, project, jobId), opts.tail));
    else for await (const chunk of streamJobLog(http, project, jobId)) await out(chunk);
    await write(ctx.stdout, filter.end());
    return;
  }
  let job: Record<string, unknown> = { id: Number(jobId) };
  const jobStatus = async () => {
    job = await getJob(http, project, jobId);
    const status = String(job.status);
    await events.status('job', Number(jobId), status);
    return status;
  };
  const { status, timedOut } = await follow(ctx, http, project, jobId, opts, jobStatus, out, () => emit(filter.restart()));
  await emit(Buffer.concat([filter.end(), Buffer.from(text.end())]));
  const failure = timedOut
    ? // A read may not have answered by then, so the status is not named.
      `job ${jobId} did not end within --wait-timeout ${opts.waitTimeout} s; it keeps running on the server`
    : status === 'manual'
      ? `job ${jobId} is manual: it runs once started (svc jobs play ${project} ${jobId})`
      : status !== 'success'
        ? `job ${jobId} ended ${status}`
        : undefined;
  if (events.enabled) await events.end(job, Object.keys(job), failure === undefined ? 0 : ExitCode.incomplete, failure);
  if (failure !== undefined) throw new IncompleteError(failure);
  ctx.info(`job ${jobId} succeeded`);
}

async function follow(
  ctx: Context,
  http: HttpClient,
  project: string,
  jobId: string,
  opts: LogOptions,
  status: () => Promise<string>,
  out: (bytes: Buffer) => Promise<void>,
  restart: () => Promise<void>,
): Promise<FollowResult> {
  let shown: Buffer | undefined;
  if (opts.tail !== undefined) {
    shown = await getJobLog(http, project, jobId);
    await out(lastLines(shown, opts.tail));
  }
  try {
    return await followLog(
      {
        status,
        log: () => getJobLog(http, project, jobId),
      },
      {
        clock: systemClock,
        signal: ctx.signal,
        intervalMs: (opts.interval ?? DEFAULT_LOG_INTERVAL_S) * 1000,
        deadline: Deadline.after(systemClock, opts.waitTimeout === undefined ? undefined : opts.waitTimeout * 1000),
        shown,
        write: out,
        restart,
        warn: (line) => ctx.warn(line),
      },
    );
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted)
      throw new InterruptedError(`interrupted; job ${jobId} keeps running on the server`);
    throw error;
  }
}
