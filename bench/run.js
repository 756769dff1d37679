// `npm run bench`: lists every project with svc and its peers, times start-up and storage moves,
// and prints markdown tables with the figures (progress goes to stderr).
// Options: --only listing,startup,moves (rolling: the rolling-moves comparison alone)  --sizes 20000,100000  --runs 5  --runs-large 3
//          --startup-runs 20  --timeout-s 900  --out FILE (also write the tables to FILE)
//          --rolling-step-ms 20  --rolling-concurrency 50  --rolling-interval S (the rolling moves' sandbox and poll interval)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { benchListingSize, listingCommands, listingTargets, renderListingSize } from './listing.js';
import { benchStartup, renderStartup } from './startup.js';
import { benchMoves, renderMoves } from './moves.js';
import { hasGnuTime } from './lib/measure.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'listing,startup,moves' },
    sizes: { type: 'string', default: '20000,100000' },
    runs: { type: 'string', default: '5' },
    'runs-large': { type: 'string', default: '3' },
    'startup-runs': { type: 'string', default: '20' },
    'timeout-s': { type: 'string', default: '900' },
    'rolling-step-ms': { type: 'string', default: '20' },
    'rolling-concurrency': { type: 'string', default: '50' },
    'rolling-interval': { type: 'string' },
    out: { type: 'string' },
  },
});

const positive = (name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`bench: --${name} must be a positive whole number\n`);
    process.exit(2);
  }
  return n;
};
const only = new Set(values.only.split(','));
const sizes = values.sizes.split(',').map(Number);
const runs = positive('runs');
const runsLarge = positive('runs-large');
const timeoutMs = positive('timeout-s') * 1000;
const log = (line) => process.stderr.write(`${line}\n`);

const cpu = cpus();
const loadAtStart = loadavg()[0];
const sections = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB memory, Node ${process.version}, ${process.platform}. ` +
    `The sandbox runs in a process of its own; every client runs with a cleared environment and an empty HOME; ` +
    `$B is the sandbox URL and $T its admin token.${hasGnuTime ? '' : ' GNU time is missing, so CPU and RSS show n/a.'}`,
];

if (only.has('listing')) {
  const measured = [];
  for (const projects of sizes) {
    log(`listing ${projects} projects`);
    const size = await benchListingSize(projects, projects > 20_000 ? runsLarge : runs, { timeoutMs, log });
    measured.push(size);
    sections.push(renderListingSize(size));
  }
  sections.push(listingTargets(measured));
  sections.push(['Commands:', ...listingCommands()].join('\n'));
}
if (only.has('startup')) {
  log('start-up');
  sections.push(renderStartup(await benchStartup(positive('startup-runs'), { log })));
}
if (only.has('moves') || only.has('rolling')) {
  log('storage moves');
  const rolling = {
    moveMs: positive('rolling-step-ms'),
    moveConcurrency: positive('rolling-concurrency'),
    interval: values['rolling-interval'],
  };
  sections.push(renderMoves(await benchMoves({ timeoutMs, log, rolling, bulkSizes: only.has('moves') })));
}

// Other work on the machine skews wall times; say how busy it was.
sections.push(
  `Load average (1 min): ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end, on ${cpu.length} cores.`,
);
const report = `${sections.join('\n\n')}\n`;
process.stdout.write(report);
if (values.out) writeFileSync(values.out, report);
