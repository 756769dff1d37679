import { isoTimeOption } from '../../cli/parsers.js';
import { auditEventPages, type AuditEvent } from '../../api/audit-events.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import { apiPath, type QueryParams } from '../../http/encode.js';
import type { Page } from '../../http/client.js';
import { userIds } from '../shared/users.js';
import { projectRef, requiredTextParser } from '../shared/args.js';
import { LIST_OPTIONS, outputList, perPageFor, type ListFlags } from '../shared/list.js';

const ENTITY_TYPES: Record<string, string> = {
  project: 'Project',
  group: 'Group',
  user: 'User',
  instance: 'Gitlab::Audit::InstanceScope',
};

const COLUMNS = ['id', 'created_at', 'author_id', 'event_name', 'entity_type', 'entity_id', 'details.target_details'];

interface AuditListOptions extends ListFlags {
  instance?: boolean;
  group?: string;
  project?: string;
  since?: string;
  until?: string;
  entityType?: string;
  author?: string;
}

const LIST = defineCommand<AuditListOptions>({
  name: 'list',
  description: 'Stream the audit log of the instance, a group or a project, newest first',
  options: [
    { flags: '--instance', help: 'every event of the instance (administrators, on a licence with audit events)' },
    { flags: '--group <group>', help: "a group's events (id or full path)", parse: requiredTextParser('--group') },
    { flags: '--project <project>', help: "a project's events (id or full path)", parse: projectRef },
    { flags: '--since <time>', help: 'only events at or after this ISO 8601 date or time', parse: isoTimeOption('--since') },
    { flags: '--until <time>', help: 'only events at or before this ISO 8601 date or time', parse: isoTimeOption('--until') },
    { flags: '--entity-type <type>', help: 'only events about this kind of thing (with --instance)', choices: Object.keys(ENTITY_TYPES) },
    { flags: '--author <user>', help: 'only events by this user (username or id; filtered here, the service has no such filter)' },
    ...LIST_OPTIONS,
  ],
  notes:
    'Pages are read by keyset (newest first), which the service offers on all three logs, so events written meanwhile are ' +
    'neither skipped nor repeated. Group and project logs show members who do not administer them only their own events.',
  examples: [
    'svc audit-events list --instance --since 2026-01-01 --all -o ndjson',
    'svc audit-events list --project acme/platform/api --author jdoe',
    'svc audit-events list --instance --entity-type user --limit 20',
  ],
  run: (ctx, _args, opts) => list(ctx, opts),
});

async function list(ctx: Context, opts: AuditListOptions): Promise<void> {
  const given = [opts.instance === true, opts.group !== undefined, opts.project !== undefined].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give one of: --instance, --group GROUP or --project PROJECT (whose audit log to read)');
  if (opts.entityType !== undefined && !opts.instance) throw new UsageError('--entity-type applies to the instance log only (--instance)');
  const http = await ctx.http({ requireToken: true });
  const scope = opts.instance
    ? ''
    : opts.group !== undefined
      ? apiPath`/groups/${opts.group}`
      : apiPath`/projects/${opts.project as string}`;
  const query: QueryParams = { created_after: opts.since, created_before: opts.until, per_page: perPageFor(opts) };
  if (opts.entityType !== undefined) query.entity_type = ENTITY_TYPES[opts.entityType];
  const author = opts.author === undefined ? undefined : (await userIds(http, [opts.author]))[0];
  const pages = byAuthor(auditEventPages(http, scope, query), author);
  await outputList(ctx, explained(pages, opts.instance === true), opts, COLUMNS, 'audit events');
}

async function* byAuthor(pages: AsyncGenerator<Page<AuditEvent>>, author: number | undefined): AsyncGenerator<Page<AuditEvent>> {
  for await (const page of pages) yield author === undefined ? page : { ...page, items: page.items.filter((e) => e.author_id === author) };
}

/** A 403 says who may read the log asked for. */
async function* explained<T>(pages: AsyncGenerator<T>, instance: boolean): AsyncGenerator<T> {
  try {
    yield* pages;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    const who = instance
      ? "the instance's audit log needs administrator access, on a licence that includes audit events"
      : 'this audit log needs at least the developer role, on a licence that includes audit events';
    throw new ApiError(403, error.body, `${error.message} (${who})`, error.exitCode);
  }
}

export const commands = [LIST];
