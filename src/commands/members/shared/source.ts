import type { MemberSource } from '../../../api/members.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import { projectRef, requiredTextParser } from '../../shared/args.js';

export interface SourceFlags {
  project?: string;
  group?: string;
}

export const SOURCE: OptionSpec[] = [
  {
    flags: '--project <project>',
    help: 'members of this project (numeric id or namespaced path)',
    parse: projectRef,
    conflicts: ['group'],
  },
  { flags: '--group <group>', help: 'members of this group (numeric id or full path)', parse: requiredTextParser('--group') },
];

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
