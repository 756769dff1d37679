import type { OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { projectRef, requiredTextParser } from '../shared/args.js';

export type OwnerKind = 'project' | 'group' | 'instance' | 'system';

/**
 * The owners of a resource that more than a project can have, chosen with `--project P | --group G |
 * --instance`; the resource's path is then the part after the owner (`/members`). `system` is the
 * instance under the name the service gives it for webhooks (`--system`, `/hooks`).
 */
export interface Owners {
  kinds: OwnerKind[];
  /** What the resource is called in the options' help: `members` of this project. */
  noun: string;
}

const FLAG: Record<OwnerKind, string> = { project: '--project P', group: '--group G', instance: '--instance', system: '--system' };

/** The options that name the owner; the first conflicts with the others, so that only one is given. */
export function ownerOptions(owners: Owners | undefined): OptionSpec[] {
  if (!owners) return [];
  return owners.kinds.map((kind, i) => {
    const conflicts = i === 0 && owners.kinds.length > 1 ? { conflicts: owners.kinds.slice(1) } : {};
    if (kind === 'project')
      return {
        flags: '--project <project>',
        help: `${owners.noun} of this project (numeric id or namespaced path)`,
        parse: projectRef,
        ...conflicts,
      };
    if (kind === 'group')
      return {
        flags: '--group <group>',
        help: `${owners.noun} of this group (numeric id or full path)`,
        parse: requiredTextParser('--group'),
        ...conflicts,
      };
    if (kind === 'system') return { flags: '--system', help: `the instance's system ${owners.noun} (administrators only)`, ...conflicts };
    return { flags: '--instance', help: `${owners.noun} of the whole instance`, ...conflicts };
  });
}

/** The owner's part of the path (`/projects/acme%2Fapi`, `/groups/acme`, or nothing for the instance). */
export function ownerPath(owners: Owners | undefined, opts: Record<string, unknown>): string {
  if (!owners) return '';
  if (owners.kinds.includes('project') && opts.project !== undefined) return apiPath`/projects/${opts.project as string}`;
  if (owners.kinds.includes('group') && opts.group !== undefined) return apiPath`/groups/${opts.group as string}`;
  if (owners.kinds.includes('instance') && opts.instance === true) return '';
  if (owners.kinds.includes('system') && opts.system === true) return '';
  const flags = owners.kinds.map((kind) => FLAG[kind]);
  throw new UsageError(`give ${flags.length > 1 ? `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}` : flags[0]}`);
}
