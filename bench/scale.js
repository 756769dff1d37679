// `node bench/scale.js [--projects 100000] [--items 3000] [--latency 100-200] [--concurrency 16]
//   [--parallel 8] [--max-in-flight 16] [--loop-sample 100] [--faults 429=0.03,503=0.04,reset=0.03]
//   [--only listing,bulk] [--no-peers] [--parallel-only]`: #16's targets at scale, against a sandbox as slow as a real
// server (run `npm run build` first).
//  1. Listing every project: the sequential floor (bench/floor-curl.sh, one curl per page), `svc`
//     sequential, `svc --parallel N`, and the peer libraries; the parallel output must be the
//     sequential one, record for record, and within 1.3× of the ideal (the sandbox's summed delays
//     ÷ N). `--parallel-only` runs `svc --parallel N` alone (about 20 s at 100,000 projects).
//  2. Archiving projects, one write per item: `svc bulk --max-in-flight N`, `xargs -P N` with curl,
//     and a loop of `svc` processes (run on a sample, extrapolated); then `svc bulk --journal` under
//     injected faults, rerun until every item is done, counting the requests each rerun sends.
// Prints markdown tables; exits 1 if a target is missed.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measure } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { benchBulkArchive, benchBulkUnderFaults, checksTable } from './lib/scale-bulk.js';
import { benchParallelListing } from './lib/scale-listing.js';
import { ms } from './lib/table.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '100000' },
    items: { type: 'string', default: '3000' },
    latency: { type: 'string', default: '100-200' },
    concurrency: { type: 'string', default: '16' },
    parallel: { type: 'string', default: '8' },
    'max-in-flight': { type: 'string', default: '16' },
    'loop-sample': { type: 'string', default: '100' },
    faults: { type: 'string', default: '429=0.03,503=0.04,reset=0.03' },
    only: { type: 'string', default: 'listing,bulk' },
    'no-peers': { type: 'boolean', default: false },
    'parallel-only': { type: 'boolean', default: false },
  },
});
const projects = Number(values.projects);
const items = Number(values.items);
const bounds = values.latency.split('-').map(Number);
const latencyMs = bounds.length === 2 ? bounds : bounds[0];
const concurrency = Number(values.concurrency);
const maxInFlight = Number(values['max-in-flight']);
const only = new Set(values.only.split(','));
const log = (line) => process.stderr.write(`${line}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
const serverShape = `--latency-ms ${values.latency}, --max-concurrency ${values.concurrency}`;
let failed = false;
const loadAtStart = loadavg()[0];

/** One client run against `sandbox`, with what it cost the server. */
async function measureRun(sandbox, env, name, command, args, options = {}) {
  const before = await sandbox.stats();
  const result = await measure(command, args, { env, timeoutMs: 3_600_000, ...options });
  const after = await sandbox.stats();
  const run = { name, ...result, ...statsDelta(before, after) };
  log(`  ${name}: ${ms(run.wallMs)}, exit ${run.exitCode}, ${run.requests} requests`);
  return run;
}

function section(title, result) {
  console.log(`\n### ${title}\n\n${result.table}\n\n${checksTable(result.checks)}`);
  failed ||= result.checks.some(([, ok]) => !ok);
}

try {
  const needed = Math.max(only.has('listing') ? projects : 0, only.has('bulk') ? 2 * items + Number(values['loop-sample']) : 0);
  const sandbox = await startSandboxProcess({ projects: needed, latencyMs, maxConcurrency: concurrency });
  const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin, SVC_CONFIG_DIR: join(scratch, 'config') };
  const run = (name, command, args, options) => measureRun(sandbox, env, name, command, args, options);
  try {
    if (only.has('listing')) {
      log(`listing ${needed.toLocaleString('en-US')} projects, ${serverShape}`);
      const listing = await benchParallelListing({
        sandbox,
        scratch,
        projects: needed,
        parallel: Number(values.parallel),
        withPeers: !values['no-peers'],
        parallelOnly: values['parallel-only'],
        run,
      });
      section(`Listing ${needed.toLocaleString('en-US')} projects, ${serverShape}`, listing);
    }
    if (only.has('bulk')) {
      log(`archiving ${items} projects per client, ${serverShape}`);
      const archive = await benchBulkArchive({ scratch, items, loopSample: Number(values['loop-sample']), maxInFlight, run });
      section(`Archiving ${items.toLocaleString('en-US')} projects, ${serverShape}`, archive);
    }
  } finally {
    await sandbox.close();
  }
  if (only.has('bulk')) {
    log(`svc bulk --journal under faults ${values.faults}`);
    const faults = await benchBulkUnderFaults({
      scratch,
      items,
      maxInFlight,
      latencyMs,
      concurrency,
      faults: values.faults,
      measureRun,
    });
    section(`svc bulk --journal archiving ${items.toLocaleString('en-US')} projects, --faults ${values.faults}, ${serverShape}`, faults);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// Other work on the machine stretches wall times; say how busy it was.
console.log(`\nLoad average (1 min): ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end.`);
process.exitCode = failed ? 1 : 0;
