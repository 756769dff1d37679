import { EVENTS_OPTION } from '../../shared/events.js';
import { InvalidArgumentError } from 'commander';
import type { OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import { MOVE_KINDS, type MoveKind } from '../../../api/storage-moves.js';
import { intOption, secondsOption } from '../../../cli/parsers.js';
import { KIND_NAMES } from '../../../workflows/storage-move/kinds.js';
import { DEFAULT_INTERVAL_S } from '../../../workflows/shared/clock.js';
import { DEFAULT_MOVE_RETRIES } from '../../../workflows/storage-move/settings.js';

/** A day between polls is already more than anyone means; beyond this an interval is a typo. */
export const MAX_INTERVAL_S = 86_400;
/** Thirty days: the longest move of a large instance fits, and no timer is set past what Node can hold. */
export const MAX_WAIT_TIMEOUT_S = 2_592_000;

/** The --kind words of every verb: plural or singular names, or `all`. */
const KIND_WORDS = new Map<string, MoveKind[]>([
  ...MOVE_KINDS.flatMap((k): Array<[string, MoveKind[]]> => [
    [KIND_NAMES[k], [k]],
    [k, [k]],
  ]),
  ['all', [...MOVE_KINDS]],
]);
const KIND_CHOICES = 'projects, snippets, groups or all';

export function parseKinds(value: string): MoveKind[] {
  const kinds = KIND_WORDS.get(value);
  if (!kinds) throw new InvalidArgumentError(`expected ${KIND_CHOICES}`);
  return kinds;
}

/**
 * `--kind` for every verb; `implicit`: it means all when absent, and the verb can tell that it was
 * not given; `single`: one kind only (move ids are numbered per kind), so `all` is not offered.
 */
export function kindOption(defaultWord: 'all' | 'projects' | 'implicit' | 'single'): OptionSpec {
  const words = [...KIND_WORDS.keys()].filter((word) => defaultWord !== 'single' || word !== 'all');
  const parse = (value: string) => {
    if (!words.includes(value))
      throw new InvalidArgumentError(`expected ${defaultWord === 'single' ? 'projects, snippets or groups' : KIND_CHOICES}`);
    return parseKinds(value);
  };
  // The choices are shown in the help and completed by the shell; the parser is what checks them.
  const option: OptionSpec = {
    flags: '--kind <kind>',
    help: defaultWord === 'implicit' ? 'kind of repository (default: all)' : 'kind of repository',
    choices: words,
    parse,
  };
  if (defaultWord === 'implicit') return option;
  const word = defaultWord === 'single' ? 'projects' : defaultWord;
  return { ...option, default: parseKinds(word), defaultText: word };
}

/** The spellings the wait's deadline and the move retries had after the verb before they got names of their own. */
export const MOVE_RENAMES = { '--timeout': '--wait-timeout', '--retries': '--move-retries' };

/** `--move-retries`, `--interval`, `--wait-timeout`, `--max-in-flight` for the verbs that watch moves. */
export const WATCH_OPTIONS: OptionSpec[] = [
  EVENTS_OPTION,
  {
    flags: '--move-retries <n>',
    help: `re-schedule a failed move up to N times per container (default ${DEFAULT_MOVE_RETRIES})`,
    parse: intOption('--move-retries', 0, 20),
  },
  {
    flags: '--interval <seconds>',
    help: `seconds between polls (default ${DEFAULT_INTERVAL_S}, at most ${MAX_INTERVAL_S})`,
    parse: secondsOption('--interval', 0.05, MAX_INTERVAL_S),
  },
  {
    flags: '--wait-timeout <seconds>',
    help: 'stop watching after this long, a request in flight included, and report what is unfinished (exit 8)',
    parse: secondsOption('--wait-timeout', 1, MAX_WAIT_TIMEOUT_S),
  },
  {
    flags: '--max-in-flight <n>',
    help: 'schedule containers one by one, keeping N moves running (a slot is refilled as soon as a move ends)',
    parse: intOption('--max-in-flight', 1),
  },
];

export function checkStorages(from: string, to: string | undefined, force: boolean | undefined): void {
  if (!from.trim()) throw new UsageError('--from must name a storage');
  if (to !== undefined && !to.trim()) throw new UsageError('--to must name a storage');
  if (to !== undefined && from === to && !force) {
    throw new UsageError(`--from and --to are both '${from}': nothing would move (pass --force to rewrite the repositories in place)`);
  }
}

export function parseSince(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO 8601 time such as 2024-05-01T12:00:00Z');
  return new Date(ms).toISOString();
}
