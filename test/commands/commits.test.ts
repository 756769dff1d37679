import { describe, expect, it } from 'vitest';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
interface CommitRecord {
  id: string;
  short_id: string;
  title: string;
  created_at: string;
  stats?: { additions: number; deletions: number; total: number };
}
const parse = (stdout: string) => JSON.parse(stdout) as CommitRecord[];
const titles = (stdout: string) => parse(stdout).map((c) => c.title);
const MAIN = [
  'Initial commit',
  ...Array.from({ length: 11 }, (_, i) => `Update ${['docs', 'main module', 'tests', 'CI config'][(i + 1) % 4]} (${i + 1})`),
].reverse();

describe('commits list', () => {
  it('lists the default branch, newest first, or the history of --ref', async () => {
    const main = await suite.run(['commits', 'list', '1', '-o', 'json']);
    expect(main.exitCode).toBe(0);
    expect(titles(main.stdout)).toEqual(MAIN);
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe('per_page=100');

    const login = await suite.run(['commits', 'list', '1', '--ref', 'feature/login', '-o', 'json']);
    expect(titles(login.stdout)).toEqual(['login: step 3', 'login: step 2', 'login: step 1', ...MAIN.slice(-6)]);
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe('ref_name=feature%2Flogin&per_page=100');
  });

  it('filters by --path, --author, --since and --until as the service does', async () => {
    const docs = await suite.run(['commits', 'list', '1', '--path', 'docs/guide/intro.md', '-o', 'json']);
    expect(titles(docs.stdout)).toEqual(['Update docs (8)', 'Update docs (4)', 'Initial commit']);
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe('path=docs%2Fguide%2Fintro.md&per_page=100');

    const bot = await suite.run(['commits', 'list', '1', '--author', 'Build Bot', '-o', 'json']);
    expect(titles(bot.stdout)).toEqual(['Update CI config (11)', 'Update docs (8)', 'Update main module (5)', 'Update tests (2)']);

    const all = parse((await suite.run(['commits', 'list', '1', '-o', 'json'])).stdout);
    const window = await suite.run(['commits', 'list', '1', '--since', all[6]!.created_at, '--until', all[3]!.created_at, '-o', 'json']);
    expect(titles(window.stdout)).toEqual(MAIN.slice(3, 7));
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe(
      `since=${encodeURIComponent(all[6]!.created_at)}&until=${encodeURIComponent(all[3]!.created_at)}&per_page=100`,
    );
  });

  it('--limit asks for that many and prints no hint that more exist: it asked for exactly those', async () => {
    const exact = await suite.run(['commits', 'list', '1', '--limit', '12', '--fields', 'title', '-o', 'tsv']);
    expect([exact.exitCode, exact.stdout, exact.stderr]).toEqual([0, `title\n${MAIN.join('\n')}\n`, '']);
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe('per_page=12');
    const fewer = await suite.run(['commits', 'list', '1', '--limit', '11', '--fields', 'title', '-o', 'tsv']);
    expect([fewer.exitCode, fewer.stdout, fewer.stderr]).toEqual([0, `title\n${MAIN.slice(0, 11).join('\n')}\n`, '']);
    expect(onlyRequest(suite, 'GET', /commits/).rawQuery).toBe('per_page=11');
  });

  it('walks the uncounted list with --all until a page comes back short', async () => {
    const result = await suite.run(['commits', 'list', '1', '--all', '--per-page', '5', '--with-stats', '-o', 'ndjson']);
    expect(result.exitCode).toBe(0);
    const records = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as CommitRecord);
    expect(records.map((c) => c.title)).toEqual(MAIN);
    expect(records[0]!.stats).toEqual({ additions: 3, deletions: 1, total: 4 });
    expect(suite.requests().map((r) => r.rawQuery)).toEqual([
      'with_stats=true&per_page=5',
      'page=2&per_page=5&with_stats=true',
      'page=3&per_page=5&with_stats=true',
    ]);
  });
});

describe('commits get', () => {
  it('shows a commit by its short SHA, with its stats; a CI job token may ask', async () => {
    const [head] = parse((await suite.run(['commits', 'list', '2', '--limit', '1', '-o', 'json'])).stdout);
    const result = await suite.run(['commits', 'get', '2', head!.id.slice(0, 7), '--fields', 'id,title,stats.additions,stats.deletions'], {
      token: suite.sandbox.tokens.job,
      tokenType: 'job',
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`id\ttitle\tstats.additions\tstats.deletions\n${head!.id}\t${head!.title}\t3\t1\n`);
    expect(onlyRequest(suite, 'GET', /commits/).rawPath).toBe(`/api/v4/projects/2/repository/commits/${head!.id.slice(0, 7)}`);
  });

  it('exits 5 with the service message for an unknown commit', async () => {
    const result = await suite.run(['commits', 'get', '2', 'deadbeef']);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([
      5,
      '',
      'svc: GET /projects/2/repository/commits/deadbeef failed: 404 Commit Not Found\n',
    ]);
  });
});

describe('time flags', () => {
  it('a time that is not ISO 8601 is refused before any request, on every listing that takes one (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['commits', 'list', '1', '--since', 'garbage'], '--since <time>'],
      [['pipeline', 'list', '1', '--updated-after', 'yesterday'], '--updated-after <time>'],
      [['issues', 'list', '1', '--created-before', '2026-13-45'], '--created-before <time>'],
      [['snippets', 'list', '--created-after', 'now'], '--created-after <time>'],
    ];
    for (const [args, flag] of cases) {
      const name = flag.split(' ')[0]!;
      const value = args.at(-1)!;
      const result = await suite.run(args);
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([
        2,
        '',
        `svc: error: option '${flag}' argument '${value}' is invalid. ${name} must be an ISO 8601 date or time, such as 2026-01-31 or 2026-01-31T12:00:00Z\n`,
      ]);
    }
    expect(suite.requests()).toEqual([]);
    const ok = await suite.run(['commits', 'list', '1', '--since', '2020-01-01T00:00:00Z', '--limit', '1', '--fields', 'id', '-o', 'tsv']);
    expect(ok.exitCode).toBe(0);
  });
});
