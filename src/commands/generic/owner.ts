import type { ArgSpec, OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';

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
  /**
   * The records are a project's (the path starts with `/projects/:project`, PROJECT positional),
   * and their listing can also gather those of every project in a group or on the instance:
   * `issues list PROJECT | --group G | --instance`. Only the collection's listing takes the other owners.
   */
  gathered?: boolean;
}

const FLAG: Record<OwnerKind, string> = { project: '--project P', group: '--group G', instance: '--instance', system: '--system' };

/** The options that name the owner; the first conflicts with the others, so that only one is given. */
export function ownerOptions(owners: Owners | undefined): OptionSpec[] {
  if (!owners || owners.gathered) return [];
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
  if (!owners || owners.gathered) return '';
  if (owners.kinds.includes('project') && opts.project !== undefined) return apiPath`/projects/${opts.project as string}`;
  if (owners.kinds.includes('group') && opts.group !== undefined) return apiPath`/groups/${opts.group as string}`;
  if (owners.kinds.includes('instance') && opts.instance === true) return '';
  if (owners.kinds.includes('system') && opts.system === true) return '';
  const flags = owners.kinds.map((kind) => FLAG[kind]);
  throw new UsageError(`give ${flags.length > 1 ? `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}` : flags[0]}`);
}

/** The owner a listing named: its kind (none for a resource without owners) and its part of the path. */
export interface ChosenOwner {
  kind?: OwnerKind;
  path: string;
}

export function chosenOwner(owners: Owners | undefined, opts: Record<string, unknown>): ChosenOwner {
  const path = ownerPath(owners, opts);
  const kind = owners?.kinds.find((k) => (k === 'instance' ? opts.instance === true : opts[k] !== undefined));
  return { kind, path };
}

const GATHERED_PREFIX = '/projects/:project';

/** The listing of a gathered resource's collection: the optional PROJECT, and the other owners as options. */
export function gatheredListing(owners: Owners, collection: string) {
  if (!collection.startsWith(`${GATHERED_PREFIX}/`)) throw new Error(`gathered ${owners.noun}: ${collection} is not a project's`);
  const others = owners.kinds.filter((kind) => kind !== 'project');
  const args: ArgSpec[] = [
    {
      name: 'project',
      help: `${PROJECT_ARGUMENT}; or give ${others.map((kind) => FLAG[kind].split(' ')[0]).join(' or ')}`,
      parse: projectRef,
      optional: true,
    },
  ];
  const options: OptionSpec[] = others.map((kind) =>
    kind === 'group'
      ? {
          flags: '--group <group>',
          help: `${owners.noun} of every project in a group and its subgroups (id or full path)`,
          parse: requiredTextParser('--group'),
        }
      : { flags: '--instance', help: `${owners.noun} of every project you can see on the instance` },
  );
  const choose = (project: unknown, opts: Record<string, unknown>): ChosenOwner => {
    const given = [project !== undefined, opts.group !== undefined, opts.instance === true];
    if (given.filter(Boolean).length !== 1) {
      throw new UsageError(`give one of: a project, ${others.map((kind) => FLAG_WORDS[kind]).join(' or ')} (which ${owners.noun} to list)`);
    }
    if (project !== undefined) return { kind: 'project', path: apiPath`/projects/${project as string}` };
    if (opts.group !== undefined) return { kind: 'group', path: apiPath`/groups/${opts.group as string}` };
    return { kind: 'instance', path: '' };
  };
  return { args, options, path: collection.slice(GATHERED_PREFIX.length), choose };
}

const FLAG_WORDS: Record<OwnerKind, string> = { project: 'a project', group: '--group GROUP', instance: '--instance', system: '--system' };
