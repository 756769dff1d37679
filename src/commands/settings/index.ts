import { getApplicationSettings, updateApplicationSettings } from '../../api/settings.js';
import { defineCommand } from '../../cli/spec.js';
import { stringifyJson } from '../../json.js';
import type { Context } from '../../context.js';
import type { Resource } from '../generic/resource.js';
import { ADMINISTRATOR, withRole } from '../generic/role.js';
import { onePage } from '../shared/plan-outcome.js';
import { getVerb } from '../generic/verbs.js';
import { parseAssignments, typedValue } from './values.js';

const SETTINGS: Resource = { path: '/application/settings', params: {}, roles: { get: ADMINISTRATOR } };
const ADMIN_NOTE = 'Only administrators may do this.';

const GET = getVerb(SETTINGS, {
  path: SETTINGS.path,
  description: "Show the instance's application settings (--fields picks some)",
  requireToken: true,
  notes: ADMIN_NOTE,
  examples: ['svc settings get --fields signup_enabled,default_projects_limit', 'svc settings get -o json'],
  print: (ctx, record) => printSettings(ctx, record as Record<string, unknown>),
});

/**
 * The settings are one record of some hundred keys: JSON and --fields print it as a record, a table or
 * TSV prints a KEY VALUE row per setting (only `keys` when given: the ones `set` changed).
 */
async function printSettings(ctx: Context, settings: Record<string, unknown>, keys = Object.keys(settings)): Promise<void> {
  const { format, fields } = ctx.output;
  if (format === 'json' || format === 'ndjson' || fields) return ctx.printRecord(settings, []);
  const rows = keys.map((key) => ({ key, value: settings[key] }));
  await ctx.printPages(onePage(rows), ['key', { field: 'value', kind: 'text' }]);
}

// stringifyJson prints a number kept as its source text (past 2^53) as that number, not as the object holding it.
const shown = (value: unknown) => stringifyJson(value);
const isHash = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether the service took the value: a hash is merged into, so only the keys asked for are compared. */
function took(asked: unknown, now: unknown): boolean {
  if (isHash(asked) && isHash(now)) return Object.entries(asked).every(([key, value]) => shown(now[key]) === shown(value));
  return shown(asked) === shown(now);
}

/** What the service would make of the value: a hash is merged into the current one, anything else replaces it. */
const wouldBe = (now: unknown, asked: unknown) => (isHash(now) && isHash(asked) ? { ...now, ...asked } : asked);

const SET = defineCommand<{ dryRun?: boolean }>({
  name: 'set',
  description: 'Change instance settings, each typed as the service shows it; prints each one before → after',
  args: [{ name: 'settings', help: 'KEY=VALUE, one or more', variadic: true }],
  options: [{ flags: '--dry-run', help: 'check the values and print before → wanted, changing nothing' }],
  notes:
    `${ADMIN_NOTE} The settings are read first: a key the instance does not show is refused (the service would ignore it), ` +
    'and each value must fit the type of the current one: true|false, a whole number, a comma list for a list ' +
    '(repository_storages=default,storage2), JSON for a hash, text otherwise. The service checks the rest (allowed ' +
    'values, ranges) and refuses the whole change if one is wrong. Before → after goes to stderr, the new settings to stdout.',
  examples: [
    'svc settings set signup_enabled=false default_projects_limit=20 --dry-run',
    'svc settings set default_project_visibility=internal -o json --fields default_project_visibility',
  ],
  run: (ctx, [assignments], opts) => setSettings(ctx, assignments as string[], opts.dryRun === true),
});

async function setSettings(ctx: Context, assignments: string[], dryRun: boolean): Promise<void> {
  const wanted = parseAssignments(assignments);
  const http = await ctx.http({ requireToken: true });
  const before = await withRole(ADMINISTRATOR, () => getApplicationSettings(http));
  const body = Object.fromEntries(wanted.map(([key, text]) => [key, typedValue(before, key, text)]));
  if (dryRun) {
    for (const [key, value] of Object.entries(body))
      ctx.info(`${key}: ${shown(before[key])} → ${shown(wouldBe(before[key], value))} (dry run)`);
    return;
  }
  const after = await withRole(ADMINISTRATOR, () => updateApplicationSettings(http, body));
  for (const [key, value] of Object.entries(body)) {
    const kept = !took(value, after[key]) ? ` (asked for ${shown(value)}; the service kept this)` : '';
    ctx.info(`${key}: ${shown(before[key])} → ${shown(after[key])}${kept}`);
  }
  if (!ctx.globals.quiet) await printSettings(ctx, after, Object.keys(body));
}

export const commands = [GET, SET];
