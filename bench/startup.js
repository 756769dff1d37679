import { pythonGitlabMissing, SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { markdownTable, mb, ratio, verdict } from './lib/table.js';

const WARM_UP = 3;

function commands() {
  return [
    { name: 'node -e 0', command: process.execPath, args: ['-e', '0'], shown: 'node -e 0', baseline: true },
    { name: 'svc --version', command: process.execPath, args: [SVC_BIN, '--version'], shown: 'node bin/svc.js --version', target: true },
    {
      name: 'svc projects list --help',
      command: process.execPath,
      args: [SVC_BIN, 'projects', 'list', '--help'],
      shown: 'node bin/svc.js projects list --help',
    },
    {
      name: 'python-gitlab --version',
      command: 'python-gitlab',
      args: ['--version'],
      shown: 'python-gitlab --version',
      missing: pythonGitlabMissing(),
    },
  ];
}

/** Median start-up time of each command over `runs` runs, after a few unmeasured ones. */
export async function benchStartup(runs, { log }) {
  const results = [];
  for (const c of commands()) {
    if (c.missing) {
      results.push({ ...c });
      continue;
    }
    for (let i = 0; i < WARM_UP; i++) await measure(c.command, c.args);
    const list = [];
    for (let i = 0; i < runs; i++) list.push(await measure(c.command, c.args));
    const failed = list.find((r) => r.exitCode !== 0);
    results.push({ ...c, wallMs: median(list.map((r) => r.wallMs)), peakRssMb: median(list.map((r) => r.peakRssMb)), failed });
    log(`  start-up ${c.name}: ${median(list.map((r) => r.wallMs)).toFixed(1)} ms`);
  }
  return { runs, results };
}

export function renderStartup({ runs, results }) {
  const baseline = results.find((r) => r.baseline);
  const rows = results.map((r) =>
    r.missing
      ? [r.name, `missing: ${r.missing}`, '', '', '']
      : [
          r.name,
          `${r.wallMs.toFixed(1)} ms`,
          ratio(r.wallMs / baseline.wallMs),
          mb(r.peakRssMb),
          r.failed ? `exit ${r.failed.exitCode}` : 'ok',
        ],
  );
  const target = results.find((r) => r.target);
  return [
    `### Start-up (median of ${runs} runs after ${WARM_UP} warm-up runs)`,
    '',
    markdownTable(['command', 'wall', '× node -e 0', 'peak RSS', 'exit'], rows),
    '',
    `Target: svc --version ≤ 2× node -e 0: ${ratio(target.wallMs / baseline.wallMs)} → ${verdict(target.wallMs <= 2 * baseline.wallMs)}`,
    '',
    'Commands:',
    ...results.map((r) => `- \`${r.shown}\``),
  ].join('\n');
}
