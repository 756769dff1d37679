// `node bench/table.js`: `svc projects list --all` as a table on an 80-column pseudo-terminal
// against `-o tsv` and `-o ndjson` to a file (#9 item 3: within 1.5x of tsv; #16 item 3).
// Options: --projects 20000  --runs 3  --bin bin/svc.js (another build to compare with)
//          --outputs tsv,ndjson,table
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SVC_BIN, ROOT } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess } from './lib/sandbox.js';
import { markdownTable, ms, ratio } from './lib/table.js';

const PTY_RUNNER = join(ROOT, 'test/support/pty-run.py');

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '3' },
    bin: { type: 'string', default: SVC_BIN },
    outputs: { type: 'string', default: 'tsv,ndjson,table' },
  },
});
const projects = Number(values.projects);
const runs = Number(values.runs);
const bin = resolve(values.bin);
const outputs = new Set(values.outputs.split(','));
const log = (line) => process.stderr.write(`${line}\n`);

/** Wall time of a run on an 80 × 24 pseudo-terminal, and when the first data row showed. */
function onTerminal(args, env) {
  const spec = { argv: [process.execPath, bin, ...args], env, rows: 24, columns: 80 };
  const started = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - started) / 1e6;
  const runner = spawn('python3', [PTY_RUNNER, JSON.stringify(spec)], { stdio: ['pipe', 'pipe', 'inherit', 'pipe'] });
  let firstRowMs = NaN;
  let lines = 0;
  let widest = 0;
  let partial = '';
  runner.stdout.setEncoding('utf8');
  runner.stdout.on('data', (chunk) => {
    const parts = (partial + chunk).split('\r\n');
    partial = parts.pop();
    for (const line of parts) {
      lines++;
      // The header is bold on a terminal: its colour codes take no columns.
      widest = Math.max(widest, [...line.replace(/\x1b\[[0-9;]*m/g, '')].length);
      if (lines === 2 && Number.isNaN(firstRowMs)) firstRowMs = since();
    }
  });
  let status = '';
  runner.stdio[3].setEncoding('utf8');
  runner.stdio[3].on('data', (chunk) => (status += chunk));
  return new Promise((done) => {
    runner.on('close', () => {
      const end = JSON.parse(status.trim().split('\n').pop());
      done({ wallMs: since(), firstRowMs, rows: lines - 1, widest, exitCode: end.exitCode });
    });
  });
}

const sandbox = await startSandboxProcess({ projects });
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-table-'));
const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin };
const results = { table: [], tsv: [], ndjson: [] };
try {
  for (let i = 1; i <= runs; i++) {
    for (const format of ['tsv', 'ndjson'].filter((f) => outputs.has(f))) {
      const run = await measure(process.execPath, [bin, 'projects', 'list', '--all', '-o', format], {
        env,
        stdoutFile: join(scratch, 'out'),
      });
      results[format].push(run);
      log(`run ${i}/${runs}, -o ${format} to a file: ${ms(run.wallMs)}, exit ${run.exitCode}`);
    }
    if (!outputs.has('table')) continue;
    const home = mkdtempSync(join(tmpdir(), 'svc-bench-home-'));
    const run = await onTerminal(['projects', 'list', '--all'], {
      ...env,
      HOME: home,
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      TERM: 'xterm-256color',
    });
    rmSync(home, { recursive: true, force: true });
    results.table.push(run);
    log(
      `run ${i}/${runs}, table on a terminal: ${ms(run.wallMs)} (first row ${ms(run.firstRowMs)}), ${run.rows} rows, widest ${run.widest}, exit ${run.exitCode}`,
    );
  }
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}

const tsvMs = median(results.tsv.map((r) => r.wallMs));
const row = (name, list) => {
  const wall = median(list.map((r) => r.wallMs));
  return [name, ms(wall), ratio(wall / tsvMs), ms(median(list.map((r) => r.cpuMs))), list.map((r) => r.exitCode).join(',')];
};
const table = results.table;
const measured = [
  ['-o tsv to a file', results.tsv],
  ['-o ndjson to a file', results.ndjson],
  ['table on an 80-column pty', table],
].filter(([, list]) => list.length);
process.stdout.write(
  [
    `### ${projects.toLocaleString('en-US')} projects, \`svc projects list --all\` (median of ${runs} runs, ${bin})`,
    '',
    markdownTable(
      ['output', 'wall', '× tsv', 'CPU (user+sys)', 'exit codes'],
      measured.map(([name, list]) => row(name, list)),
    ),
    '',
    table.length
      ? `Table: first row after ${ms(median(table.map((r) => r.firstRowMs)))}, ${table[0].rows} rows, widest line ${Math.max(...table.map((r) => r.widest))} columns.\n`
      : '',
  ].join('\n'),
);
