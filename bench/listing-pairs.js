// Listing CPU of svc against the bare keep-alive loops (and, with --baseline, an earlier build), in
// rounds on one sandbox: each round runs every client once, in an order that rotates, so all see the
// same load on a shared machine. Prints CPU, wall, peak RSS and the cost per record of each, and the
// ratios the performance issue sets targets on.
// `node bench/listing-pairs.js [--sizes 20000] [--runs 5] [--baseline DIR] [--format table]`
// The default (20,000 projects) takes about half a minute; 100,000 and 200,000 (`--sizes 100000,200000`)
// take 20–40 s a round and are asked for, never the default.
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ROOT, SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms, perRecord, ratio } from './lib/table.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    format: { type: 'string', default: 'ndjson' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
if (!sizes.every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(runs) || runs < 1) {
  process.stderr.write('bench: --sizes takes whole numbers separated by commas, --runs a positive whole number\n');
  process.exit(2);
}
const svcArgs = ['projects', 'list', '--all', '-o', values.format];
const clients = [
  { name: 'svc', args: [SVC_BIN, ...svcArgs], withCredentials: 'env' },
  ...(values.baseline ? [{ name: 'svc, baseline', args: [join(values.baseline, 'bin/svc.js'), ...svcArgs], withCredentials: 'env' }] : []),
  { name: 'bare loop, node:http', args: [join(ROOT, 'bench/floor-keepalive.js')], loop: 'http' },
  { name: 'bare loop, undici', args: [join(ROOT, 'bench/floor-keepalive-undici.js')], loop: 'undici' },
];

const sections = [];
for (const projects of sizes) {
  const sandbox = await startSandboxProcess({ projects });
  const url = sandbox.url;
  const token = sandbox.tokens.admin;
  const loads = [loadavg()[0]];
  const samples = clients.map(() => ({ cpu: [], wall: [], rss: [], requests: [], connections: [] }));
  try {
    for (let round = 0; round <= runs; round++) {
      for (let k = 0; k < clients.length; k++) {
        const i = (k + round) % clients.length;
        const client = clients[i];
        const args = client.withCredentials ? client.args : [...client.args, url, token];
        const env = client.withCredentials ? { SVC_URL: url, SVC_TOKEN: token } : {};
        const before = await sandbox.stats();
        const result = await measure(process.execPath, args, { env, timeoutMs: 900_000 });
        const counted = statsDelta(before, await sandbox.stats());
        if (result.exitCode !== 0) throw new Error(`${client.name} exited ${result.exitCode}: ${result.stderr}`);
        // Round 0 warms the sandbox and the file cache and is not counted.
        if (round === 0) continue;
        const s = samples[i];
        s.cpu.push(result.cpuMs);
        s.wall.push(result.wallMs);
        s.rss.push(result.peakRssMb);
        s.requests.push(counted.requests);
        s.connections.push(counted.connections);
      }
      loads.push(loadavg()[0]);
      process.stderr.write(`  ${projects} projects: round ${round}/${runs} done, load ${loadavg()[0].toFixed(1)}\n`);
    }
  } finally {
    await sandbox.close();
  }
  const m = samples.map((s) => ({
    cpu: median(s.cpu),
    wall: median(s.wall),
    rss: median(s.rss),
    requests: median(s.requests),
    connections: median(s.connections),
  }));
  const http = m[clients.findIndex((c) => c.loop === 'http')];
  const undici = m[clients.findIndex((c) => c.loop === 'undici')];
  const rows = clients.map((c, i) => [
    c.name,
    ms(m[i].cpu),
    perRecord(m[i].cpu, projects),
    ratio(m[i].cpu / http.cpu),
    ratio(m[i].cpu / undici.cpu),
    ms(m[i].wall),
    mb(m[i].rss),
    String(m[i].requests),
    String(m[i].connections),
  ]);
  sections.push(
    [
      `### ${projects.toLocaleString('en-US')} projects, \`-o ${values.format}\` for svc (medians of ${runs} rounds; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})`,
      '',
      markdownTable(
        [
          'client',
          'CPU (user+sys)',
          'CPU per record',
          'CPU × node:http loop',
          'CPU × undici loop',
          'wall',
          'peak RSS',
          'requests',
          'connections',
        ],
        rows,
      ),
    ].join('\n'),
  );
}
process.stdout.write(`${sections.join('\n\n')}\n`);
