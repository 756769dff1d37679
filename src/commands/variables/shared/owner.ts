import type { VariableOwner } from '../../../api/variables.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { UsageError } from '../../../errors.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../../shared/args.js';

export interface OwnerFlags {
  project?: string;
  group?: string;
  instance?: boolean;
}

export const PROJECT_OR_GROUP: OptionSpec[] = [
  { flags: '--project <project>', help: `the project's variables: ${PROJECT_ARGUMENT}`, parse: projectRef },
  {
    flags: '--group <group>',
    help: "the group's variables: numeric id or full path (group/subgroup)",
    parse: requiredTextParser('--group'),
  },
];

export const OWNER_OPTIONS: OptionSpec[] = [
  ...PROJECT_OR_GROUP,
  { flags: '--instance', help: "the instance's variables (administrators)" },
];

/** Exactly one of --project, --group and (where offered) --instance. */
export function variableOwner(flags: OwnerFlags, instanceOffered = true): VariableOwner {
  const given = [flags.project !== undefined, flags.group !== undefined, Boolean(flags.instance)].filter(Boolean).length;
  const names = instanceOffered ? '--project, --group or --instance' : '--project or --group';
  if (given !== 1) throw new UsageError(`give exactly one of ${names}`);
  if (flags.project !== undefined) return { kind: 'project', id: flags.project };
  if (flags.group !== undefined) return { kind: 'group', id: flags.group };
  return { kind: 'instance' };
}

export function describeOwner(owner: VariableOwner): string {
  return owner.kind === 'instance' ? 'the instance' : `${owner.kind} ${owner.id}`;
}
