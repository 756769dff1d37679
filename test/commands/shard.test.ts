import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

// `--shard K/N` (#24): N runs over the same input split it, every item in exactly one shard.
const SHARDS = 4;
const PROJECTS = 60;

const idsOf = (stdout: string): number[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: number }).id);

describe('projects list --shard', () => {
  const suite = useSandbox({ projects: PROJECTS });

  it('four shards together list every project exactly once, none of them empty', async () => {
    const whole = await suite.run(['projects', 'list', '--all', '-o', 'ndjson', '--fields', 'id']);
    expect(whole.exitCode).toBe(0);
    const every = idsOf(whole.stdout);
    expect(every).toHaveLength(PROJECTS);
    const shards: number[][] = [];
    for (let k = 1; k <= SHARDS; k++) {
      const part = await suite.run(['projects', 'list', '--all', '--shard', `${k}/${SHARDS}`, '-o', 'ndjson', '--fields', 'id']);
      expect(part).toMatchObject({ exitCode: 0, stderr: '' });
      shards.push(idsOf(part.stdout));
    }
    for (const part of shards) expect(part.length).toBeGreaterThan(0);
    // Each shard keeps the listing's order; together they are the listing, with nothing twice.
    const merged = shards.flat();
    expect(merged).toHaveLength(PROJECTS);
    expect([...merged].sort((a, b) => a - b)).toEqual([...every].sort((a, b) => a - b));
    for (const part of shards) expect(part).toEqual(every.filter((id) => part.includes(id)));
  });

  it('--shard ci takes CI_NODE_INDEX of CI_NODE_TOTAL, as shard K/N does', async () => {
    const explicit = await suite.run(['projects', 'list', '--all', '--shard', '3/4', '-o', 'ndjson', '--fields', 'id']);
    const fromCi = await suite.run(['projects', 'list', '--all', '--shard', 'ci', '-o', 'ndjson', '--fields', 'id'], {
      env: { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4' },
    });
    expect(fromCi).toEqual(explicit);
  });

  it('refuses a shard that is not K/N with 1 ≤ K ≤ N, with one line and nothing sent', async () => {
    for (const [spec, message] of [
      ['0/4', '--shard: K, the shard, must be between 1 and 4'],
      ['5/4', '--shard: K, the shard, must be between 1 and 4'],
      ['2/0', '--shard: N, the number of shards, must be between 1 and 1000'],
      ['two', '--shard must be K/N (shard K of N, e.g. 2/4) or ci'],
    ]) {
      const result = await suite.run(['projects', 'list', '--all', '--shard', spec as string]);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`svc: error: option '--shard <K/N|ci>' argument '${spec}' is invalid. ${message}\n`);
      expect(suite.requests()).toEqual([]);
    }
  });

  it('--shard ci outside a parallel job says which variables it needs', async () => {
    const result = await suite.run(['projects', 'list', '--all', '--shard', 'ci'], { env: { CI_NODE_INDEX: '', CI_NODE_TOTAL: '' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: --shard ci: CI_NODE_INDEX= and CI_NODE_TOTAL= must be whole numbers\n');
  });
});

describe('bulk --shard', () => {
  const suite = useSandbox({ projects: 10 });
  const input = `${Array.from({ length: 40 }, (_, i) => String(i + 1)).join('\n')}\n`;

  it('four dry runs over the same input print each command exactly once between them', async () => {
    const printed: string[] = [];
    let took = 0;
    for (let k = 1; k <= SHARDS; k++) {
      const result = await suite.run(['bulk', '--dry-run', '--shard', `${k}/${SHARDS}`, '--', 'projects', 'get', '{id}'], { input });
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.split('\n').filter((line) => line !== '');
      const count = /^bulk: shard \d\/4 took (\d+) of 40 input lines\n/.exec(result.stderr);
      expect(count).not.toBeNull();
      expect(Number(count![1])).toBe(lines.length);
      took += lines.length;
      printed.push(...lines);
    }
    expect(took).toBe(40);
    expect([...printed].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `svc projects get ${i + 1}`).sort());
  });

  it('a record and its bare id fall in the same shard: the id decides, not the rest of the line', async () => {
    const bare = await suite.run(['bulk', '--dry-run', '--shard', '2/3', '--', 'projects', 'get', '{id}'], { input });
    const records = input
      .trim()
      .split('\n')
      .map((id) => JSON.stringify({ id: Number(id), name: `p${id}` }))
      .join('\n');
    const asRecords = await suite.run(['bulk', '--dry-run', '--shard', '2/3', '--', 'projects', 'get', '{id}'], { input: `${records}\n` });
    expect(asRecords.stdout).toBe(bare.stdout);
  });
});
