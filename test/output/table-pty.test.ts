import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { displayWidth } from '../../src/output/width.js';
import { BIN, cleanupTempDirs, isolatedEnv, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

const PROJECTS = 3000;
// Keyset pages of 100, then the empty page after the last.
const REQUESTS = PROJECTS / 100 + 1;
const BOLD_ID = '\x1b[1mid\x1b[22m';

let sandbox: Sandbox;

beforeAll(async () => {
  // Every answer takes 60 ms, so a listing that printed only at the end would show it.
  sandbox = await startTestSandbox({ projects: PROJECTS, faults: 'slow=1', slowMs: 60 });
});

afterAll(async () => {
  await sandbox.close();
  cleanupTempDirs();
});

function terminalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...isolatedEnv({ env: sandboxEnv(sandbox) }), TERM: 'xterm-256color', ...extra };
}

/** A table row's cells: separated by two or more spaces (values hold single spaces only). */
const cells = (line: string) => line.split(/ {2,}/);

describe('svc projects list --all on an 80-column terminal', () => {
  it('shows the first rows while later pages are still being fetched, every line within 80 columns', async () => {
    const tsv = await svc(['projects', 'list', '--all', '-o', 'tsv'], { env: sandboxEnv(sandbox) });
    expect(tsv.exitCode).toBe(0);
    const [columns, ...values] = tsv.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));

    const before = sandbox.stats().requests.total;
    const term = spawnPty(['node', BIN, 'projects', 'list', '--all'], { env: terminalEnv(), columns: 80, rows: 24 });
    await term.waitFor(`\r\n${values[0][0]}  `);
    const requestsAtFirstRow = sandbox.stats().requests.total - before;
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    expect(sandbox.stats().requests.total - before).toBe(REQUESTS);
    expect(requestsAtFirstRow).toBeLessThanOrEqual(2);

    const lines = end.output.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.filter((line) => displayWidth(line.replaceAll(/\x1b\[\d+m/g, '')) > 80)).toEqual([]);
    // Bold names on a terminal with colour; each value whole, or its beginning and an ellipsis, or
    // a timestamp to the minute.
    expect(lines[0].startsWith(`${BOLD_ID}  `)).toBe(true);
    const header = cells(lines[0].replaceAll(/\x1b\[\d+m/g, ''));
    const rows = lines.slice(1).map(cells);
    expect(rows.length).toBe(PROJECTS);
    const toMinute = (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:/.test(value) && `${value.slice(0, 10)} ${value.slice(11, 16)}`;
    const shown = (cell: string, value: string) =>
      cell === value || (cell.endsWith('…') && value.startsWith(cell.slice(0, -1))) || cell === toMinute(value);
    expect(header.filter((cell, i) => !shown(cell, columns[i]))).toEqual([]);
    const mismatched = rows.flatMap((row, r) => row.filter((cell, i) => !shown(cell, values[r][i])).map((cell) => `row ${r + 1}: ${cell}`));
    expect(mismatched).toEqual([]);
    expect(rows.map((row) => row[0])).toEqual(values.map((row) => row[0]));
  }, 300_000);

  it('prints no colour with NO_COLOR, and fits a wider terminal', async () => {
    const term = spawnPty(['node', BIN, 'projects', 'list', '--limit', '5'], { env: terminalEnv({ NO_COLOR: '1' }), columns: 120 });
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    expect(end.output.includes('\x1b')).toBe(false);
    const lines = end.output.split('\r\n');
    // The header and five rows; after them stderr's note that more exist.
    const table = lines.slice(0, 6);
    expect(table[0].startsWith('id  ')).toBe(true);
    expect(table.slice(1).map((line) => /^\d+ {2}/.test(line))).toEqual([true, true, true, true, true]);
    expect(table.filter((line) => line.includes('…'))).toEqual([]);
    expect(lines.filter((line) => displayWidth(line) > 120)).toEqual([]);
  }, 300_000);
});
