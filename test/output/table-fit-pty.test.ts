// What a narrow terminal gives up first (#21): timestamps, then SHAs, then descriptions; never a
// column's name, and a name or title only after those.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from '../commands/support.js';

const suite = useSandbox({ projects: 4 });

async function onTerminal(args: string[]): Promise<{ exitCode: number | null; lines: string[] }> {
  const env = { ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1', COLUMNS: '80' };
  const end = await spawnPty(['node', BIN, ...args], { env, columns: 80 }).exit();
  const lines = end.output.split('\r\n');
  expect(lines.pop()).toBe('');
  expect(lines.filter((line) => displayWidth(line) > 80)).toEqual([]);
  return { exitCode: end.exitCode, lines };
}

async function records<T>(args: string[]): Promise<T[]> {
  const result = await suite.run([...args, '-o', 'json']);
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as T[];
}

/** A table row's cells: separated by two or more spaces. */
const cells = (line: string) => line.split(/ {2,}/);
const cutFrom = (cell: string, value: string) => cell.endsWith('…') && value.startsWith(cell.slice(0, -1));

describe('tables on an 80-column terminal', () => {
  it('show a timestamp as its date and a SHA as 8 characters before cutting any message, title or name', async () => {
    const fields = 'id,created_at,author_name,title,message';
    const commits = await records<Record<string, string>>(['commits', 'list', '2', '--limit', '3', '--fields', fields]);
    const { exitCode, lines } = await onTerminal(['commits', 'list', '2', '--limit', '3', '--fields', fields]);
    expect(exitCode).toBe(0);
    expect(cells(lines[0] as string)).toEqual(['id', 'created_at', 'author_name', 'title', 'message']);
    const rows = lines.slice(1).map(cells);
    expect(rows.map((row) => row.slice(0, 4))).toEqual(
      commits.map((c) => [c.id!.slice(0, 8), c.created_at!.slice(0, 10), c.author_name, c.title]),
    );
    // The message is the last column: whole when it fits, else its beginning and an ellipsis.
    const messages = commits.map((c) => c.message!.replaceAll('\n', '\\n'));
    expect(rows.map((row, i) => row[4] === messages[i] || cutFrom(row[4] as string, messages[i] as string))).toEqual([true, true, true]);
    expect(rows.filter((row) => (row[4] as string).endsWith('…'))).not.toEqual([]);
  });

  it('leave out a column whose name has no room, saying so, rather than cut a name; titles give way before states', async () => {
    const requests = await records<Record<string, unknown>>(['mr', 'list', '2', '--limit', '3']);
    const { exitCode, lines } = await onTerminal(['mr', 'list', '2', '--limit', '3']);
    expect(exitCode).toBe(0);
    expect(lines[0]).toBe('left out detailed_merge_status (no room in 80 columns; -o tsv shows all)');
    expect(cells(lines[1] as string)).toEqual(['iid', 'title', 'state', 'source_branch', 'target_branch', 'author.username']);
    const rows = lines.slice(2).map(cells);
    expect(rows.map((row) => [row[0], ...row.slice(2)])).toEqual(
      requests.map((r) => [String(r.iid), r.state, r.source_branch, r.target_branch, (r.author as { username: string }).username]),
    );
    expect(rows.map((row, i) => cutFrom(row[1] as string, requests[i]!.title as string))).toEqual([true, true, true]);
  });

  it('say on stderr that nothing matched, and print nothing on stdout', async () => {
    const { exitCode, lines } = await onTerminal(['issues', 'list', '2', '--search', 'no-such-issue']);
    expect([exitCode, lines]).toEqual([0, ['no issues match']]);
  });

  it('off a terminal, an empty listing is the header line in TSV, [] in JSON and nothing in ndjson, with nothing on stderr', async () => {
    const search = ['issues', 'list', '2', '--search', 'no-such-issue'];
    const tsv = await suite.run(search);
    const json = await suite.run([...search, '-o', 'json']);
    const ndjson = await suite.run([...search, '-o', 'ndjson']);
    expect([tsv, json, ndjson].map((r) => [r.exitCode, r.stdout, r.stderr])).toEqual([
      [0, 'iid\ttitle\tstate\tauthor.username\tlabels\tcreated_at\n', ''],
      [0, '[]\n', ''],
      [0, '', ''],
    ]);
  });
});
