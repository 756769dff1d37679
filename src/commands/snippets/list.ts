import { isoTimeOption } from '../../cli/parsers.js';
import { defineCommand, type OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { listVerb } from '../generic/verbs.js';
import { LIST_OPTIONS, type ListFlags } from '../shared/list.js';
import { SNIPPETS } from './shared/resource.js';

const SCOPES = { mine: '/snippets', public: '/snippets/public', all: '/snippets/all' } as const;
type Scope = keyof typeof SCOPES;

const FILTERS: OptionSpec[] = [
  {
    flags: '--created-after <time>',
    key: 'created_after',
    help: 'only snippets created after this ISO 8601 time',
    parse: isoTimeOption('--created-after'),
  },
  {
    flags: '--created-before <time>',
    key: 'created_before',
    help: 'only snippets created before this ISO 8601 time',
    parse: isoTimeOption('--created-before'),
  },
];

/** One listing per scope: each is the same verb on its own collection. */
const LISTINGS = Object.fromEntries(
  Object.entries(SCOPES).map(([scope, path]) => [
    scope,
    listVerb(SNIPPETS, { path, requireToken: true, filters: FILTERS, description: scope, examples: [] }),
  ]),
) as Record<Scope, ReturnType<typeof listVerb>>;

interface ListOptions extends ListFlags {
  scope?: Scope;
  public?: boolean;
}

export const LIST = defineCommand<ListOptions>({
  name: 'list',
  description: 'List your personal snippets, every public one, or every one you can see',
  options: [
    {
      flags: '--scope <scope>',
      help: "whose snippets: mine (yours, the default), public (every user's public ones) or all (every one you can see)",
      choices: Object.keys(SCOPES),
    },
    { flags: '--public', help: 'the same as --scope public' },
    ...FILTERS,
    ...LIST_OPTIONS,
  ],
  notes:
    '`--all` fetches every page, as in every listing; the snippets you can see (yours, internal and public ones, ' +
    'or every snippet for an administrator) are therefore `--scope all`.',
  examples: ['svc snippets list', 'svc snippets list --public --limit 20 -o json', 'svc snippets list --scope all --all -o ndjson'],
  run(ctx, args, opts) {
    if (opts.public && opts.scope !== undefined && opts.scope !== 'public') {
      throw new UsageError(`--public and --scope ${opts.scope} ask for different snippets; give one of them`);
    }
    const scope: Scope = opts.public ? 'public' : (opts.scope ?? 'mine');
    return LISTINGS[scope].run(ctx, args, opts as Record<string, unknown> & ListFlags);
  },
});
