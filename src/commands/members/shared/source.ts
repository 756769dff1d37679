import type { MemberSource } from '../../../api/members.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import { ownerOptions } from '../../generic/owner.js';
import type { Resource } from '../../generic/resource.js';
import { accessLevelName } from '../../shared/access-level.js';

export interface SourceFlags {
  project?: string;
  group?: string;
}

/** A project's or a group's members: `--project P | --group G`. */
export const MEMBERS: Resource = {
  path: '/members',
  owners: { kinds: ['project', 'group'], noun: 'members' },
  params: {},
  // Tables name the level (`developer`); JSON keeps the service's number.
  columns: [
    'id',
    'username',
    'name',
    { field: 'access_level', kind: 'text', show: (level) => accessLevelName(Number(level)) },
    'expires_at',
    'state',
  ],
};

export const SOURCE: OptionSpec[] = ownerOptions(MEMBERS.owners);

/** Exactly one of --project and --group. */
export function memberSource(opts: SourceFlags | Record<string, unknown>): MemberSource {
  if (opts.project !== undefined) return { kind: 'projects', id: String(opts.project) };
  if (opts.group !== undefined) return { kind: 'groups', id: String(opts.group) };
  throw new UsageError('give --project P or --group G');
}

/** `project acme/api` or `group acme`, for what is said on stderr. */
export function sourceName(source: MemberSource): string {
  return `${source.kind === 'projects' ? 'project' : 'group'} ${source.id}`;
}
