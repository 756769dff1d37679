import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, SvcError, UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
import { getApplicationSettings } from '../../api/settings.js';
import { isMissingRoute, newestStorageMove, MOVE_KINDS, type MoveKind, type StorageMove } from '../../api/storage-moves.js';
import { intOption, secondsOption } from '../../runtime.js';
import { shellQuote } from '../shared/shell.js';
import { DEFAULT_INTERVAL_S } from '../shared/wait.js';

export const KIND_NAMES: Record<MoveKind, string> = { project: 'projects', snippet: 'snippets', group: 'groups' };
export const DEFAULT_RETRIES = 3;

/** The --kind words of every verb: plural or singular names, or `all`. */
const KIND_WORDS = new Map<string, MoveKind[]>([
  ...MOVE_KINDS.flatMap((k): Array<[string, MoveKind[]]> => [[KIND_NAMES[k], [k]], [k, [k]]]),
  ['all', [...MOVE_KINDS]],
]);
const KIND_CHOICES = 'projects, snippets, groups or all';

export function parseKinds(value: string): MoveKind[] {
  const kinds = KIND_WORDS.get(value);
  if (!kinds) throw new InvalidArgumentError(`expected ${KIND_CHOICES}`);
  return kinds;
}

/** `--kind` for every verb; `implicit`: it means all when absent, and the verb can tell that it was not given. */
export function kindOption(defaultWord: 'all' | 'projects' | 'implicit'): Option {
  if (defaultWord === 'implicit') return new Option('--kind <kind>', `${KIND_CHOICES} (default: all)`).argParser(parseKinds);
  return new Option('--kind <kind>', KIND_CHOICES).argParser(parseKinds).default(parseKinds(defaultWord), defaultWord);
}

/** Move ids are numbered per kind, so a verb about one move needs exactly one. */
export function singleKind(kinds: MoveKind[], verb: string): MoveKind {
  if (kinds.length !== 1) throw new UsageError(`${verb} needs a single --kind (projects, snippets or groups): move ids are numbered per kind`);
  return kinds[0] as MoveKind;
}

export interface WatchFlags {
  from: string;
  to: string;
  kind: MoveKind[];
  retries?: number;
  interval?: number;
  timeout?: number;
  maxInFlight?: number;
  since?: string;
}

/** `--retries`, `--interval`, `--timeout`, `--max-in-flight` for the verbs that watch moves. */
export function addWatchOptions(command: Command): Command {
  return command
    .option('--retries <n>', `re-schedule a failed move up to N times per container (default ${DEFAULT_RETRIES})`, intOption('--retries', 0, 20))
    .option('--interval <seconds>', `seconds between polls (default ${DEFAULT_INTERVAL_S})`, secondsOption('--interval', 0.05))
    .option('--timeout <seconds>', 'stop watching after this long and report what is unfinished (exit 8)', secondsOption('--timeout', 1))
    .option('--max-in-flight <n>', 'schedule containers one by one, at most N moves running at once', intOption('--max-in-flight', 1));
}

export interface WatchSettings {
  retries: number;
  intervalMs: number;
  deadline?: number;
}

/** `--retries` and `--timeout` here are move retries and the watch's deadline (cli.ts gives them to the verb). */
export function takeWatchSettings(flags: WatchFlags, startedAt: number): WatchSettings {
  const retries = flags.retries ?? DEFAULT_RETRIES;
  const timeout = flags.timeout;
  return {
    retries,
    intervalMs: (flags.interval ?? DEFAULT_INTERVAL_S) * 1000,
    deadline: timeout === undefined ? undefined : startedAt + timeout * 1000,
  };
}

export function checkStorages(from: string, to: string | undefined, force: boolean | undefined): void {
  if (!from.trim()) throw new UsageError('--from must name a storage');
  if (to !== undefined && !to.trim()) throw new UsageError('--to must name a storage');
  if (to !== undefined && from === to && !force) {
    throw new UsageError(`--from and --to are both '${from}': nothing would move (pass --force to rewrite the repositories in place)`);
  }
}

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
export async function probeKinds(ctx: Context, http: HttpClient, kinds: MoveKind[]): Promise<KindProbe[]> {
  const probes: KindProbe[] = [];
  for (const kind of kinds) {
    try {
      probes.push({ kind, ...(await newestStorageMove(http, kind)) });
    } catch (error) {
      if (!isMissingRoute(error)) explainForbidden(error);
      const why = kind === 'group' ? 'group repository moves are a paid-tier feature' : 'the route does not exist on this version';
      if (kinds.length === 1) throw new SvcError(`this instance has no ${kind} storage moves (${why})`, ExitCode.notFound);
      ctx.warn(`skipping ${KIND_NAMES[kind]}: this instance has no ${kind} storage moves (${why})`);
    }
  }
  return probes;
}

/** Without a listing by storage, a container the bulk job skips leaves no trace the client could see. */
export function warnUnlisted(ctx: Context, kind: MoveKind): void {
  ctx.warn(`${KIND_NAMES[kind]}: this instance cannot list them by storage; following the moves the bulk job creates (one it skips cannot be noticed)`);
}

/** The exact command that resumes watching, for the Ctrl-C message and the schedule hint. */
export function resumeCommand(flags: WatchFlags, settings: WatchSettings, sinceIso: string | undefined): string {
  const kind = flags.kind.length === MOVE_KINDS.length ? 'all' : KIND_NAMES[flags.kind[0] as MoveKind];
  const parts = ['svc', 'storage-move', 'wait', '--from', flags.from, '--to', flags.to, '--kind', kind];
  parts.push('--retries', String(settings.retries), '--interval', String(settings.intervalMs / 1000));
  if (flags.maxInFlight !== undefined) parts.push('--max-in-flight', String(flags.maxInFlight));
  if (sinceIso) parts.push('--since', sinceIso);
  return parts.map(shellQuote).join(' ');
}

export function parseSince(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO 8601 time such as 2024-05-01T12:00:00Z');
  return new Date(ms).toISOString();
}

/** Records already in memory, for the writers that stream. */
export async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
