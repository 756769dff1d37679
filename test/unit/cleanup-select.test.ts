import { describe, expect, it } from 'vitest';
import { packagesToDelete } from '../../src/workflows/packages-cleanup/plan.js';
import { nameCandidates, tagsToDelete, type TagFacts } from '../../src/workflows/registry-cleanup/select.js';

// The clean-ups' judgement, apart from any request: the registry's follows CleanupTagsService
// (app/services/projects/container_repository/cleanup_tags_service.rb), the packages' keeps per package.
const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;
const tag = (name: string, days: number | null): TagFacts => ({
  name,
  created_at: days === null ? null : new Date(NOW - days * DAY).toISOString(),
  total_size: 1,
  digest: null,
});

describe('the registry clean-up', () => {
  it('never takes latest, matches whole names, and lets the keep regex win', () => {
    const names = ['latest', 'v1', 'v1-rc', 'dev-1', 'xdev-1'];
    expect(nameCandidates(names, { deleteRegex: '.*' })).toEqual(['v1', 'v1-rc', 'dev-1', 'xdev-1']);
    expect(nameCandidates(names, { deleteRegex: 'dev-.*|v1.*', keepRegex: 'v1' })).toEqual(['v1-rc', 'dev-1']);
  });

  it('keeps the newest N (a tag without a date counts as newest), then deletes only the old, and never one without a date', () => {
    const tags = [tag('a', 40), tag('b', 30), tag('c', null), tag('d', 5), tag('e', 50)];
    expect(tagsToDelete(tags, { deleteRegex: '.*', keepN: 2 }, NOW).map((t) => t.name)).toEqual(['a', 'b', 'e']);
    expect(tagsToDelete(tags, { deleteRegex: '.*', olderThanMs: 35 * DAY }, NOW).map((t) => t.name)).toEqual(['a', 'e']);
    expect(tagsToDelete(tags, { deleteRegex: '.*', keepN: 0, olderThanMs: DAY }, NOW).map((t) => t.name)).toEqual(['a', 'b', 'd', 'e']);
  });
});

describe('the packages clean-up', () => {
  it('keeps the newest versions of each name and type on its own', () => {
    const pkg = (id: number, name: string, type: string, days: number) => ({
      id,
      name,
      version: String(id),
      package_type: type,
      created_at: new Date(NOW - days * DAY).toISOString(),
    });
    const all = [pkg(1, 'a', 'npm', 30), pkg(2, 'a', 'npm', 20), pkg(3, 'a', 'npm', 10), pkg(4, 'a', 'maven', 40), pkg(5, 'b', 'npm', 50)];
    expect(packagesToDelete(all, { keepN: 1 }, NOW).map((p) => p.id)).toEqual([1, 2]);
    expect(packagesToDelete(all, { keepN: 1, olderThanMs: 25 * DAY }, NOW).map((p) => p.id)).toEqual([1]);
    expect(packagesToDelete(all, { olderThanMs: 35 * DAY }, NOW).map((p) => p.id)).toEqual([4, 5]);
  });
});
