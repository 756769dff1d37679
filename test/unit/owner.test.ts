import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { gatheredListing, ownerOptions, ownerPath, type Owners } from '../../src/commands/generic/owner.js';

const EVERY: Owners = { kinds: ['project', 'group', 'instance'], noun: 'labels' };
const TWO: Owners = { kinds: ['project', 'group'], noun: 'members' };
const GATHERED: Owners = { kinds: ['project', 'group', 'instance'], noun: 'issues', gathered: true };

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

describe("the owners of a project's records that a group or the instance gathers", () => {
  const listing = gatheredListing(GATHERED, '/projects/:project/issues');

  it('keep PROJECT positional and list a group or the instance by option, only for the collection', () => {
    expect(listing.args.map(({ name, help, optional }) => ({ name, help, optional }))).toEqual([
      { name: 'project', help: 'numeric id or namespaced path (group/project); or give --group or --instance', optional: true },
    ]);
    expect(listing.options.map(({ flags, help }) => ({ flags, help }))).toEqual([
      { flags: '--group <group>', help: 'issues of every project in a group and its subgroups (id or full path)' },
      { flags: '--instance', help: 'issues of every project you can see on the instance' },
    ]);
    expect(listing.path).toBe('/issues');
    expect([ownerOptions(GATHERED), ownerPath(GATHERED, { group: 'acme' })]).toEqual([[], '']);
  });

  it('take exactly one of them', () => {
    expect(listing.choose('acme/api', {})).toEqual({ kind: 'project', path: '/projects/acme%2Fapi' });
    expect(listing.choose(undefined, { group: 'acme/tools' })).toEqual({ kind: 'group', path: '/groups/acme%2Ftools' });
    expect(listing.choose(undefined, { instance: true })).toEqual({ kind: 'instance', path: '' });
    const refusal = new UsageError('give one of: a project, --group GROUP or --instance (which issues to list)');
    expect(() => listing.choose(undefined, {})).toThrow(refusal);
    expect(() => listing.choose('1', { instance: true })).toThrow(refusal);
  });
});
