import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const TREES = ['assets', 'docs', 'docs/c++', 'docs/guide', 'docs/guide/advanced', 'src', 'src/app', 'src/lib'];
const BLOBS = [
  '.gitlab-ci.yml',
  'README.md',
  'assets/logo.png',
  'docs/c++/notes+tips.md',
  'docs/guide/advanced/config.md',
  'docs/guide/intro.md',
  'docs/release notes.md',
  'src/app/main.ts',
  'src/lib/util.ts',
];

describe('repo tree', () => {
  it('lists the top of the default branch, directories first, with type and mode', async () => {
    const result = await suite.run(['repo', 'tree', '1']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'type\tmode\tpath\ntree\t040000\tassets\ntree\t040000\tdocs\ntree\t040000\tsrc\nblob\t100644\t.gitlab-ci.yml\nblob\t100644\tREADME.md\n',
    );
    expect(onlyRequest(suite, 'GET', /tree/).rawQuery).toBe('per_page=100&pagination=keyset');
  });

  it('walks every level with --recursive over keyset pages (page_token of the last entry)', async () => {
    const result = await suite.run(['repo', 'tree', '1', '--recursive', '--all', '--per-page', '5', '-o', 'ndjson']);
    expect(result.exitCode).toBe(0);
    const entries = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; type: string; path: string });
    expect(entries.map((e) => `${e.type} ${e.path}`)).toEqual([...TREES.map((p) => `tree ${p}`), ...BLOBS.map((p) => `blob ${p}`)]);
    const queries = suite.requests().map((r) => r.rawQuery);
    expect(queries).toEqual([
      'recursive=true&per_page=5&pagination=keyset',
      ...[4, 9, 14].map((i) => `page_token=${entries[i]!.id}&pagination=keyset&per_page=5&recursive=true`),
    ]);
  });

  it('reads a directory at a ref, its name encoded once in the query', async () => {
    const result = await suite.run(['repo', 'tree', '1', '--ref', 'feature/login', '--path', 'src/app', '--fields', 'path']);
    expect(result.stdout).toBe('path\nsrc/app/login.ts\nsrc/app/main.ts\n');
    expect(onlyRequest(suite, 'GET', /tree/).rawQuery).toBe('ref=feature%2Flogin&path=src%2Fapp&per_page=100&pagination=keyset');
    const spaced = await suite.run(['repo', 'tree', '1', '--path', 'docs', '--fields', 'name']);
    expect(spaced.stdout).toBe('name\nc++\nguide\nrelease notes.md\n');
  });

  it('exits 5 for an unknown ref with the service message', async () => {
    const result = await suite.run(['repo', 'tree', '1', '--ref', 'no/such']);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([
      5,
      '',
      'svc: GET /projects/1/repository/tree failed: 404 Tree Not Found\n',
    ]);
  });
});
