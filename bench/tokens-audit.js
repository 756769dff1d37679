// `svc tokens audit` over a sandbox with many users and their tokens: wall time, requests, peak RSS.
// Run after `npm run build`:
//   node bench/tokens-audit.js [--users 10000] [--projects 500] [--runs 3] [--max-in-flight 8]
// The sandbox runs in a process of its own (its memory is not the client's); a first audit seeds its
// token store and is not counted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasGnuTime, measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms } from './lib/table.js';

const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    projects: { type: 'string', default: '500' },
    runs: { type: 'string', default: '3' },
    'max-in-flight': { type: 'string', default: '8' },
  },
});
const users = Number(values.users);
const projects = Number(values.projects);
const runs = Number(values.runs);
const maxInFlight = values['max-in-flight'];

const sandbox = await startSandboxProcess({ users, projects });
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-tokens-'));
const out = join(scratch, 'audit.ndjson');
const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin };

async function audit() {
  const before = await sandbox.stats();
  const result = await measure('node', [BIN, 'tokens', 'audit', '--max-in-flight', maxInFlight], { env, stdoutFile: out });
  const after = await sandbox.stats();
  const records = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  return { ...result, ...statsDelta(before, after), records };
}

try {
  const warm = await audit();
  if (warm.exitCode !== 0) throw new Error(`audit failed: exit ${warm.exitCode}: ${warm.stderr}`);
  const measured = [];
  for (let i = 1; i <= runs; i++) {
    const run = await audit();
    if (run.exitCode !== 0) throw new Error(`audit failed: exit ${run.exitCode}: ${run.stderr}`);
    measured.push(run);
    process.stderr.write(`run ${i}/${runs}: ${ms(run.wallMs)}, ${run.requests} requests, ${mb(run.peakRssMb)}, ${run.records} records\n`);
  }
  const rows = [
    [
      `${users.toLocaleString('en-US')} users, ${projects.toLocaleString('en-US')} projects`,
      measured[0].records.toLocaleString('en-US'),
      ms(median(measured.map((r) => r.wallMs))),
      String(median(measured.map((r) => r.requests))),
      hasGnuTime ? mb(median(measured.map((r) => r.peakRssMb))) : 'n/a (no /usr/bin/time)',
      ms(median(measured.map((r) => r.cpuMs))),
    ],
  ];
  process.stdout.write(
    `svc tokens audit --max-in-flight ${maxInFlight}, median of ${runs} runs\n\n` +
      markdownTable(['sandbox', 'tokens', 'wall', 'requests', 'peak RSS', 'CPU'], rows) +
      `\n\nsummary (stderr of the last run): ${measured[measured.length - 1].stderr}\n`,
  );
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}
