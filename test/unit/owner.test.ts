import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { ownerOptions, ownerPath, type Owners } from '../../src/commands/generic/owner.js';

const EVERY: Owners = { kinds: ['project', 'group', 'instance'], noun: 'labels' };
const TWO: Owners = { kinds: ['project', 'group'], noun: 'members' };

const shown = (owners: Owners | undefined) => ownerOptions(owners).map(({ flags, help, conflicts }) => ({ flags, help, conflicts }));

describe('the owner of a resource a project, a group or the instance can have', () => {
  it('is chosen with --project P | --group G | --instance, the first conflicting with the others', () => {
    expect(shown(EVERY)).toEqual([
      {
        flags: '--project <project>',
        help: 'labels of this project (numeric id or namespaced path)',
        conflicts: ['group', 'instance'],
      },
      { flags: '--group <group>', help: 'labels of this group (numeric id or full path)', conflicts: undefined },
      { flags: '--instance', help: 'labels of the whole instance', conflicts: undefined },
    ]);
    expect(shown(TWO).map((option) => option.conflicts)).toEqual([['group'], undefined]);
    expect(shown(undefined)).toEqual([]);
  });

  it('puts the owner in front of the path, each name one encoded segment', () => {
    expect(ownerPath(EVERY, { project: 'acme/api' })).toBe('/projects/acme%2Fapi');
    expect(ownerPath(EVERY, { group: 'acme/tools' })).toBe('/groups/acme%2Ftools');
    expect(ownerPath(EVERY, { instance: true })).toBe('');
    expect(ownerPath(undefined, {})).toBe('');
  });

  it('refuses a command that names no owner, saying which it takes', () => {
    expect(() => ownerPath(EVERY, {})).toThrow(new UsageError('give --project P, --group G or --instance'));
    expect(() => ownerPath(TWO, { instance: true })).toThrow(new UsageError('give --project P or --group G'));
  });
});
