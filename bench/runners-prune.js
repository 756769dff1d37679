// `node bench/runners-prune.js` (after `npm run build`): `svc runners prune --stale` over a sandbox
// with 5,000 runners: the dry run, the dry run with --older-than (one detail read per stale
// runner), and the real prune on a fresh sandbox. Prints a markdown table (progress on stderr).
// Options: --runners 5000  --runs 3  --no-real (skip the deleting run)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms } from './lib/table.js';

const { values } = parseArgs({
  options: {
    runners: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
    'no-real': { type: 'boolean', default: false },
  },
});
const RUNNERS = Number(values.runners);
const RUNS = Number(values.runs);
const PRUNE = ['runners', 'prune', '--stale', '-o', 'ndjson', '--fields', 'id'];
const VARIANTS = [
  { args: [...PRUNE, '--dry-run'], deletes: false },
  { args: [...PRUNE, '--dry-run', '--older-than', '90d'], deletes: false },
];
const log = (line) => process.stderr.write(`${line}\n`);

async function runOnce(sandbox, args) {
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-prune-'));
  try {
    const stdoutFile = join(scratch, 'out');
    const before = await sandbox.stats();
    const run = await measure(process.execPath, [SVC_BIN, ...args], {
      env: { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin },
      stdoutFile,
    });
    const delta = statsDelta(before, await sandbox.stats());
    const planned = readFileSync(stdoutFile, 'utf8').split('\n').filter(Boolean).length;
    return { ...run, ...delta, planned };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function summarise(variant, runs) {
  const last = runs[runs.length - 1];
  return [
    `\`svc ${variant.args.join(' ')}\``,
    String(runs.length),
    ms(median(runs.map((r) => r.wallMs))),
    String(last.exitCode),
    last.planned.toLocaleString('en-US'),
    String(median(runs.map((r) => r.requests))),
    ms(median(runs.map((r) => r.cpuMs))),
    mb(median(runs.map((r) => r.peakRssMb))),
  ];
}

const rows = [];
const sandbox = await startSandboxProcess({ projects: 100, runners: RUNNERS });
try {
  await runOnce(sandbox, VARIANTS[0].args);
  for (const variant of VARIANTS) {
    const runs = [];
    for (let i = 1; i <= RUNS; i++) {
      runs.push(await runOnce(sandbox, variant.args));
      log(`  ${variant.args.slice(3).join(' ')} run ${i}/${RUNS}: ${ms(runs[i - 1].wallMs)}, exit ${runs[i - 1].exitCode}`);
    }
    rows.push(summarise(variant, runs));
  }
} finally {
  await sandbox.close();
}
if (!values['no-real']) {
  const fresh = await startSandboxProcess({ projects: 100, runners: RUNNERS });
  try {
    const args = [...PRUNE, '--yes'];
    const run = await runOnce(fresh, args);
    log(`  real prune: ${ms(run.wallMs)}, exit ${run.exitCode}`);
    rows.push(summarise({ args }, [run]));
  } finally {
    await fresh.close();
  }
}
process.stdout.write(
  [
    `### runners prune: ${RUNNERS.toLocaleString('en-US')} runners (sandbox in its own process)`,
    '',
    markdownTable(['command', 'runs', 'wall (median)', 'exit', 'runners planned', 'requests', 'CPU', 'peak RSS'], rows),
    '',
  ].join('\n'),
);
