import { describe, expect, it } from 'vitest';
import { parseNdjson } from '../support/harness.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 30 });

describe('groups get', () => {
  it('shows a group by full path, encoded as one path segment', async () => {
    const result = await suite.run(['groups', 'get', 'acme/platform', '-o', 'json', '--fields', 'id,full_path,parent_id']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: 2, full_path: 'acme/platform', parent_id: 1 }, null, 2)}\n`,
      stderr: '',
    });
    onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/acme%2Fplatform$/);
  });

  it('reports an unknown group (exit 5)', async () => {
    const result = await suite.run(['groups', 'get', 'nowhere']);
    expect(result).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /groups/nowhere failed: 404 Group Not Found\n' });
  });
});

describe('groups subgroups', () => {
  it('lists the children, or every descendant with --all-descendants', async () => {
    const children = await suite.run(['groups', 'subgroups', 'initech', '-o', 'ndjson', '--fields', 'full_path']);
    expect(parseNdjson(children.stdout)).toEqual([{ full_path: 'initech/backend' }]);
    const all = await suite.run(['groups', 'subgroups', '1', '--all-descendants', '-o', 'ndjson', '--fields', 'id']);
    const state = suite.sandbox.state;
    const expected = Array.from({ length: 20 }, (_, i) => state.group(i + 1))
      .filter((g) => g !== null && g.id !== 1 && g.fullPath.startsWith('acme/'))
      .sort((a, b) => (a!.name < b!.name ? -1 : a!.name > b!.name ? 1 : a!.id - b!.id))
      .map((g) => ({ id: g!.id }));
    expect(parseNdjson(all.stdout)).toEqual(expected);
    onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/1\/descendant_groups$/);
  });
});

describe('groups projects', () => {
  it("lists a group's own projects newest first, and its subgroups' with --include-subgroups", async () => {
    const state = suite.sandbox.state;
    const inGroup = (ids: number[]) =>
      Array.from({ length: 30 }, (_, i) => state.project(30 - i)!)
        .filter((p) => p.nsKind === 'group' && ids.includes(p.nsOwner))
        .map((p) => ({ id: p.id }));
    const own = await suite.run(['groups', 'projects', 'acme', '--no-shared', '--all', '-o', 'ndjson', '--fields', 'id']);
    expect(parseNdjson(own.stdout)).toEqual(inGroup([1]));
    expect(new URLSearchParams(onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/acme\/projects$/).rawQuery).get('with_shared')).toBe('false');
    const acmeTree = Array.from({ length: 20 }, (_, i) => state.group(i + 1))
      .filter((g) => g !== null && (g.id === 1 || g.fullPath.startsWith('acme/')))
      .map((g) => g!.id);
    const tree = await suite.run([
      'groups',
      'projects',
      'acme',
      '--include-subgroups',
      '--no-shared',
      '--all',
      '-o',
      'ndjson',
      '--fields',
      'id',
    ]);
    expect(parseNdjson(tree.stdout)).toEqual(inGroup(acmeTree));
    expect(new URLSearchParams(onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/acme\/projects$/).rawQuery).get('include_subgroups')).toBe(
      'true',
    );
  });

  it('includes the projects of other groups shared with the group unless --no-shared', async () => {
    const all = await suite.run(['groups', 'projects', 'acme', '--all', '-o', 'ndjson', '--fields', 'id,path_with_namespace']);
    const others = parseNdjson(all.stdout).filter(
      (p) => !String((p as { path_with_namespace: string }).path_with_namespace).startsWith('acme/'),
    );
    expect([all.exitCode, others]).toEqual([
      0,
      [
        { id: 29, path_with_namespace: 'initech/dusty-nebula-29' },
        { id: 17, path_with_namespace: 'umbrella/mellow-beacon-17' },
        { id: 5, path_with_namespace: 'globex/calm-tundra-5' },
      ],
    ]);
  });

  it('filters archived projects either way', async () => {
    suite.sandbox.state.project(1)!.archived = true;
    const archived = await suite.run(['groups', 'projects', 'acme/platform', '--archived', '-o', 'ndjson', '--fields', 'id,archived']);
    expect(parseNdjson(archived.stdout)).toEqual([{ id: 1, archived: true }]);
    const active = await suite.run(['groups', 'projects', 'acme/platform', '--no-archived', '-o', 'ndjson', '--fields', 'id']);
    const unarchived = Array.from({ length: 30 }, (_, i) => suite.sandbox.state.project(30 - i)!)
      .filter((p) => p.nsKind === 'group' && p.nsOwner === 2 && !p.archived)
      .map((p) => ({ id: p.id }));
    expect(unarchived).toContainEqual({ id: 2 });
    expect(parseNdjson(active.stdout)).toEqual(unarchived);
    expect(new URLSearchParams(suite.requests()[0]!.rawQuery).get('archived')).toBe('false');
  });
});
