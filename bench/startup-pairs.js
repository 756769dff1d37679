// Start-up against an earlier build, in pairs: each round runs the same command with this build and
// with the baseline back to back (alternating which goes first), so both see the same load.
// `node bench/startup-pairs.js --baseline DIR [--runs 21]`: DIR is a built checkout of the earlier
// version (`git worktree add DIR <commit> && (cd DIR && npm ci)`). Prints a markdown table.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess } from './lib/sandbox.js';
import { markdownTable, mb, ratio } from './lib/table.js';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, runs: { type: 'string', default: '21' } } });
if (!values.baseline) {
  process.stderr.write('bench: --baseline DIR (a built checkout of the earlier version) is required\n');
  process.exit(2);
}
const runs = Number(values.runs);
const builds = [
  { name: 'this build', bin: SVC_BIN },
  { name: 'baseline', bin: join(values.baseline, 'bin/svc.js') },
];
const sandbox = await startSandboxProcess({ projects: 50 });
const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin };
const commands = [
  { shown: 'svc projects get 1', args: ['projects', 'get', '1'] },
  { shown: 'svc --version', args: ['--version'] },
  { shown: 'svc projects list --help', args: ['projects', 'list', '--help'] },
];
const loadAtStart = loadavg()[0];
const rows = [];
for (const command of commands) {
  const samples = builds.map(() => ({ cpu: [], wall: [], rss: [] }));
  for (let round = 0; round < runs + 2; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const result = await measure(process.execPath, [builds[i].bin, ...command.args], { env });
      if (result.exitCode !== 0) throw new Error(`${builds[i].name}: ${command.shown} exited ${result.exitCode}: ${result.stderr}`);
      // The first two rounds warm the file cache and are not counted.
      if (round < 2) continue;
      samples[i].cpu.push(result.cpuMs);
      samples[i].wall.push(result.wallMs);
      samples[i].rss.push(result.peakRssMb);
    }
  }
  const [now, before] = samples.map((s) => ({ cpu: median(s.cpu), wall: median(s.wall), rss: median(s.rss) }));
  rows.push([
    command.shown,
    `${Math.round(now.cpu)} ms`,
    `${Math.round(before.cpu)} ms`,
    ratio(now.cpu / before.cpu),
    `${Math.round(now.wall)} ms`,
    `${Math.round(before.wall)} ms`,
    mb(now.rss),
    mb(before.rss),
  ]);
  process.stderr.write(`  ${command.shown}: CPU ${Math.round(now.cpu)} vs ${Math.round(before.cpu)} ms\n`);
}
await sandbox.close();
process.stdout.write(
  `Medians of ${runs} pairs; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end.\n\n` +
    markdownTable(
      ['command', 'CPU now', 'CPU baseline', 'CPU ratio', 'wall now', 'wall baseline', 'peak RSS now', 'peak RSS baseline'],
      rows,
    ) +
    '\n',
);
