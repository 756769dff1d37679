import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, TOKEN_TYPES } from '../http/types.js';

/**
 * The options every command takes, in one table of plain data: it drives commander (which adds the
 * parsers, in cli/parsers.ts), the help, completion, the README's table and the precedence the
 * config resolves. `env` and `config` name where a value comes from when the flag is absent (flag,
 * then environment, then the profile's config key).
 */
export interface GlobalOption {
  flags: string;
  /** The property commander gives the value under. */
  name: keyof GlobalValues;
  help: string;
  env?: string;
  config?: string;
  choices?: readonly string[];
  default?: unknown;
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface GlobalValues {
  url?: string;
  token?: string;
  tokenType?: string;
  profile?: string;
  sudo?: string;
  timeout?: number;
  retries?: number;
  caFile?: string;
  output?: OutputFormat;
  fields?: string[];
  debug?: boolean;
  quiet?: boolean;
}

export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
  { flags: '--url <url>', name: 'url', help: 'service URL', env: 'SVC_URL', config: 'url' },
  { flags: '--token <token>', name: 'token', help: 'access token (prefer `svc auth login`)', env: 'SVC_TOKEN' },
  {
    flags: '--token-type <type>',
    name: 'tokenType',
    help: 'how the token is sent',
    env: 'SVC_TOKEN_TYPE',
    config: 'tokenType',
    choices: TOKEN_TYPES,
  },
  { flags: '--profile <name>', name: 'profile', help: 'config profile to use', env: 'SVC_PROFILE' },
  { flags: '--sudo <user>', name: 'sudo', help: 'run the request as another user (id or username; admin token with sudo scope)' },
  {
    flags: '--timeout <seconds>',
    name: 'timeout',
    help: 'per-attempt timeout in seconds',
    default: DEFAULT_TIMEOUT_MS / 1000,
  },
  {
    flags: '--retries <n>',
    name: 'retries',
    help: 'retries for transient failures',
    default: DEFAULT_RETRIES,
  },
  { flags: '--ca-file <path>', name: 'caFile', help: 'extra CA bundle in PEM', env: 'SVC_CA_FILE', config: 'caFile' },
  { flags: '-o, --output <format>', name: 'output', help: 'output format', choices: OUTPUT_FORMATS },
  {
    flags: '--fields <list>',
    name: 'fields',
    help: 'comma-separated fields to show, dot paths allowed (e.g. id,namespace.full_path)',
  },
  { flags: '--debug', name: 'debug', help: 'print each request and response to stderr (tokens redacted)', env: 'SVC_DEBUG' },
  { flags: '-q, --quiet', name: 'quiet', help: 'no progress, hints or colour; a write prints no record on stdout' },
];

/** The help line of an option, with where else its value may come from and its default. */
export function globalOptionHelp(option: GlobalOption): string {
  const notes: string[] = [];
  if (option.env) notes.push(`env ${option.env}${option.flags.includes('<') ? '' : '=1'}`);
  if (option.default !== undefined) notes.push(`default ${String(option.default)}`);
  if (notes.length === 0) return option.help;
  const inner = /^(.*) \((.*)\)$/.exec(option.help);
  return inner ? `${inner[1]} (${[...notes, inner[2]].join('; ')})` : `${option.help} (${notes.join('; ')})`;
}

/** Options that take a value: the words after them are values, not command names. */
export const GLOBAL_FLAGS_WITH_VALUES: ReadonlySet<string> = new Set(
  GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap((o) => o.flags.split(/[ ,]+/).filter((w) => w.startsWith('-'))),
);

/** The options as a Markdown table, for the README (a test keeps the two in step). */
export function globalOptionsTable(): string {
  const rows = GLOBAL_OPTIONS.map((o) => {
    const from = [o.env && `\`${o.env}\``, o.config && `profile \`${o.config}\``].filter(Boolean).join(', ');
    const values = o.choices ? ` (${o.choices.join(', ')})` : '';
    return `| \`${o.flags}\` | ${o.help}${values} | ${from || '—'} | ${o.default === undefined ? '—' : String(o.default)} |`;
  });
  return ['| option | meaning | also from | default |', '|---|---|---|---|', ...rows].join('\n');
}
