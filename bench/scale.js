// `node bench/scale.js [--projects 100000] [--items 300] [--latency 100-200] [--concurrency 16]`: #16's
// targets at scale, against a sandbox as slow as a real server (run `npm run build` first).
//  1. Listing every project: the sequential floor (bench/floor-curl.sh, one curl per page), `svc`
//     sequential and `svc --parallel 8`; the parallel output must be the sequential one, record for record.
//  2. One write per item (`snippets delete`, the write every sandbox has enough of): `svc bulk
//     --max-in-flight 16`, `xargs -P 16` with curl, and a loop of `svc` processes, each on its own items.
// Prints markdown tables; exits 1 if a target is missed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, SVC_BIN } from './lib/clients.js';
import { measure } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms, ratio, verdict } from './lib/table.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '100000' },
    items: { type: 'string', default: '300' },
    latency: { type: 'string', default: '100-200' },
    concurrency: { type: 'string', default: '16' },
  },
});
const projects = Number(values.projects);
const items = Number(values.items);
const latencyMs = values.latency.split('-').map(Number);
const log = (line) => process.stderr.write(`${line}\n`);

const sandbox = await startSandboxProcess({
  projects,
  latencyMs: latencyMs.length === 2 ? latencyMs : latencyMs[0],
  maxConcurrency: Number(values.concurrency),
});
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin, SVC_CONFIG_DIR: join(scratch, 'config') };
let failed = false;

async function run(name, command, args, options = {}) {
  const before = await sandbox.stats();
  const result = await measure(command, args, { env, timeoutMs: 3_600_000, ...options });
  const after = await sandbox.stats();
  const run = { name, ...result, ...statsDelta(before, after) };
  log(`  ${name}: ${ms(run.wallMs)}, exit ${run.exitCode}, ${run.requests} requests`);
  return run;
}

const idsIn = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => [JSON.parse(line)].flat().map((record) => record.id));

try {
  log(`listing ${projects.toLocaleString('en-US')} projects, latency ${values.latency} ms, ${values.concurrency} server workers`);
  const files = { floor: join(scratch, 'floor'), sequential: join(scratch, 'seq'), parallel: join(scratch, 'par') };
  const floor = await run(
    'floor (curl per page, sequential)',
    'bash',
    [join(ROOT, 'bench/floor-curl.sh'), sandbox.url, sandbox.tokens.admin],
    {
      stdoutFile: files.floor,
    },
  );
  const list = ['projects', 'list', '--all', '-o', 'ndjson'];
  const sequential = await run('svc sequential', 'node', [SVC_BIN, ...list], { stdoutFile: files.sequential });
  const parallel = await run('svc --parallel 8', 'node', [SVC_BIN, ...list, '--parallel', '8'], { stdoutFile: files.parallel });
  const expected = idsIn(files.sequential);
  const got = idsIn(files.parallel);
  const floorIds = idsIn(files.floor);
  const sameAsSequential = got.length === projects && got.every((id, i) => id === expected[i]);
  const speedUp = floor.wallMs / parallel.wallMs;
  const listingRows = [floor, sequential, parallel].map((r) => [
    r.name,
    ms(r.wallMs),
    ratio(floor.wallMs / r.wallMs),
    ms(r.cpuMs),
    mb(r.peakRssMb),
    String(r.requests),
    String(r.exitCode),
  ]);
  console.log(
    `\n### Listing ${projects.toLocaleString('en-US')} projects, --latency-ms ${values.latency}, --max-concurrency ${values.concurrency}\n`,
  );
  console.log(markdownTable(['client', 'wall', 'speed vs floor', 'CPU', 'peak RSS', 'requests', 'exit'], listingRows));
  const listingChecks = [
    ['--parallel 8 at least 6× faster than the floor', speedUp >= 6, ratio(speedUp)],
    [
      'records exactly once and in the sequential order',
      sameAsSequential,
      `${got.length} of ${expected.length} (floor printed ${floorIds.length})`,
    ],
    ['peak RSS of --parallel 8 at most 200 MB', parallel.peakRssMb <= 200, mb(parallel.peakRssMb)],
  ];
  console.log(
    `\n${markdownTable(
      ['target', 'verdict', 'measured'],
      listingChecks.map(([t, ok, m]) => [t, verdict(ok), m]),
    )}`,
  );
  failed ||= listingChecks.some(([, ok]) => !ok);

  log(`one write per item: ${items} items per client`);
  const batch = (k) => Array.from({ length: items }, (_, i) => String(k * items + i + 1)).join('\n');
  const inputFile = (k) => {
    const file = join(scratch, `items-${k}`);
    writeFileSync(file, `${batch(k)}\n`);
    return file;
  };
  const bulkInput = inputFile(0);
  const xargsInput = inputFile(1);
  const loopInput = inputFile(2);
  const bulk = await run('svc bulk --max-in-flight 16', 'bash', [
    '-c',
    `node '${SVC_BIN}' bulk --max-in-flight 16 -- snippets delete --yes {id} < '${bulkInput}' > /dev/null`,
  ]);
  const xargs = await run('xargs -P 16 curl', 'bash', [
    '-c',
    `xargs -P 16 -I ID curl -sS --fail -o /dev/null -X DELETE -H "PRIVATE-TOKEN: $SVC_TOKEN" "$SVC_URL/api/v4/snippets/ID" < '${xargsInput}'`,
  ]);
  const loop = await run('loop of svc processes', 'bash', [
    '-c',
    `while read -r id; do node '${SVC_BIN}' snippets delete --yes "$id" 2>/dev/null || exit 1; done < '${loopInput}'`,
  ]);
  const writeRows = [bulk, xargs, loop].map((r) => [
    r.name,
    ms(r.wallMs),
    ratio(loop.wallMs / r.wallMs),
    ms(r.cpuMs),
    String(r.requests),
    String(r.exitCode),
  ]);
  console.log(`\n### ${items} deletes per client, --latency-ms ${values.latency}, --max-concurrency ${values.concurrency}\n`);
  console.log(markdownTable(['client', 'wall', 'speed vs loop', 'CPU', 'requests', 'exit'], writeRows));
  const writeChecks = [
    ['bulk at least 10× faster than a loop of processes', loop.wallMs / bulk.wallMs >= 10, ratio(loop.wallMs / bulk.wallMs)],
    ['bulk at least as fast as xargs -P 16 with curl', bulk.wallMs <= xargs.wallMs, ratio(xargs.wallMs / bulk.wallMs)],
    [
      'every client ended with exit 0',
      [bulk, xargs, loop].every((r) => r.exitCode === 0),
      [bulk, xargs, loop].map((r) => r.exitCode).join(', '),
    ],
  ];
  console.log(
    `\n${markdownTable(
      ['target', 'verdict', 'measured'],
      writeChecks.map(([t, ok, m]) => [t, verdict(ok), m]),
    )}`,
  );
  failed ||= writeChecks.some(([, ok]) => !ok);
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
