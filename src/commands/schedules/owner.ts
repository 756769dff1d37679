import { intOption } from '../../cli/parsers.js';
import type { CommandSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { schedulesOwnedBy } from '../../workflows/schedule-handover/owned.js';
import { requiredTextParser } from '../shared/args.js';
import { outputList, type ListFlags } from '../shared/list.js';

const COLUMNS = ['project', 'id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'owner.username'];

/**
 * `schedules list` of one project, or with `--owner` the schedules one user owns in every project
 * the token can read them in: PROJECT becomes optional, and is refused beside --owner.
 */
export function withOwner(list: CommandSpec): CommandSpec {
  return {
    ...list,
    description: `${list.description}, or with --owner the schedules one user owns across every project you can read`,
    args: (list.args ?? []).map((arg, i) => (i === 0 ? { ...arg, optional: true } : arg)),
    options: [
      ...(list.options ?? []),
      {
        flags: '--owner <user>',
        help: 'list the schedules this user (username or id) owns in every project whose schedules you can read, instead of one project',
        parse: requiredTextParser('--owner'),
      },
      {
        flags: '--max-in-flight <n>',
        help: 'with --owner: projects read at once',
        parse: intOption('--max-in-flight', 1, 64),
        default: 8,
      },
    ],
    notes: [
      list.notes,
      'With --owner, svc lists the projects (every one for an administrator, else those where you are at least a ' +
        "reporter) and reads each one's schedules, several at once; the table then starts with the project's path. " +
        'Hand them over with `svc schedules take-ownership PROJECT ID`.',
    ]
      .filter(Boolean)
      .join('\n\n'),
    examples: [...list.examples, 'svc schedules list --owner jdoe --all -o tsv --fields project,id,description'],
    async run(ctx, args, opts) {
      const owner = opts.owner as string | undefined;
      if (owner === undefined) {
        if (args[0] === undefined)
          throw new UsageError('give a PROJECT, or --owner USER to list the schedules a user owns across projects');
        return list.run(ctx, args, opts);
      }
      if (args[0] !== undefined) throw new UsageError('give a PROJECT or --owner, not both');
      const http = await ctx.http({ requireToken: true });
      const scope = opts.scope as string | undefined;
      const pages = schedulesOwnedBy(http, {
        owner,
        maxInFlight: opts.maxInFlight as number,
        query: scope === undefined ? {} : { scope },
        warn: (line) => ctx.warn(line),
      });
      await outputList(ctx, pages, opts as unknown as ListFlags, COLUMNS, 'pipeline schedules');
    },
  };
}
