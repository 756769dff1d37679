import type { Command } from 'commander';
import { toOption } from '../../cli/build.js';
import { intOption } from '../../cli/parsers.js';
import type { OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import type { Page } from '../../http/client.js';
import { readingAhead } from '../../http/read-ahead.js';
import type { ColumnSpec } from '../../output/columns.js';

export interface ListFlags {
  limit?: number;
  all?: boolean;
  perPage?: number;
}

export const DEFAULT_LIMIT = 100;

/** The options of every listing. */
export const LIST_OPTIONS: OptionSpec[] = [
  { flags: '--limit <n>', help: `show at most N records (default ${DEFAULT_LIMIT})`, parse: intOption('--limit', 1) },
  { flags: '--all', help: 'fetch every page', conflicts: ['limit'] },
  {
    flags: '--per-page <n>',
    help: 'records per request, 1-100 (default 100 when more than one page is needed)',
    parse: intOption('--per-page', 1, 100),
  },
];

export function addListOptions(command: Command): Command {
  for (const option of LIST_OPTIONS) command.addOption(toOption(option));
  return command;
}

/** Records to fetch, or Infinity for --all. */
export function listLimit(flags: ListFlags): number {
  return flags.all ? Number.POSITIVE_INFINITY : (flags.limit ?? DEFAULT_LIMIT);
}

export function perPageFor(flags: ListFlags): number {
  if (flags.perPage) return flags.perPage;
  return Math.min(100, listLimit(flags));
}

/**
 * Streams the records of `pages` to stdout in the chosen format, stopping at the limit. On stderr
 * it says when the default limit left records out (an explicit --limit asked for exactly that),
 * and, at a terminal, that nothing matched (`noun`: what is listed, `projects`).
 */
export async function outputList<T>(
  ctx: Context,
  pages: AsyncIterable<Page<T>>,
  flags: ListFlags,
  columns: ColumnSpec[],
  noun = 'records',
): Promise<void> {
  const limit = listLimit(flags);
  let more = false;
  let requests = 0;
  // Every page will be read: the next one is asked for while this one is printed.
  const source = limit === Number.POSITIVE_INFINITY ? readingAhead(pages) : pages;
  async function* limited(): AsyncGenerator<T[]> {
    let emitted = 0;
    for await (const page of source) {
      requests++;
      const room = limit - emitted;
      const items = page.items.length > room ? page.items.slice(0, room) : page.items;
      emitted += items.length;
      yield items;
      if (emitted >= limit) {
        more = page.items.length > room || page.hasNext;
        return;
      }
    }
  }
  const result = await ctx.printPages(limited(), columns);
  ctx.debug(`${result.count} records in ${requests} pages`);
  if (more && flags.limit === undefined) ctx.info(`showing the first ${result.count} records; more exist (use --all or --limit N)`);
  // Off a terminal an empty table is still its header line (TSV), json `[]` and ndjson nothing.
  if (result.count === 0 && ctx.io.isTTY.stdout && ctx.output.format === 'table') ctx.info(`no ${noun} match`);
}
