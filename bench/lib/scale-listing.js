// The listing half of bench/scale.js: every project of a slow sandbox, by the sequential floor,
// `svc` sequential, `svc --parallel N` and the peers that can list (missing ones say so).
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { listingClients, ROOT, SVC_BIN } from './clients.js';
import { countProjects } from './count.js';
import { markdownTable, mb, ms, ratio } from './table.js';

/** The peer libraries that list every project; the CLIs are left to bench/listing.js (latency 0). */
const PEERS = ['python-gitlab 3.12 library', 'gitbeaker 43 library'];

/** The ids printed, in order: NDJSON records, or one JSON array per line (the floor's pages). */
async function idsIn(file) {
  const ids = [];
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line !== '') ids.push(...[JSON.parse(line)].flat().map((record) => record.id));
  }
  return ids;
}

/**
 * The least wall time N workers can take: the server's summed delays shared evenly between them.
 * The check: `--parallel N` within 1.3× of it.
 */
function idealCheck(parallelRun, parallel) {
  const ideal = parallelRun.delayMs / parallel;
  const measured = parallelRun.wallMs / ideal;
  return [
    `--parallel ${parallel} within 1.3× of the ideal (the sandbox's summed delays ÷ ${parallel})`,
    measured <= 1.3,
    `${ratio(measured)}: ${ms(parallelRun.wallMs)} against ${ms(ideal)} (${ms(parallelRun.delayMs)} of delays over ${parallelRun.requests} requests)`,
  ];
}

/** `svc --parallel N` alone (`--parallel-only`): its time against the ideal, and every record once. */
async function benchParallelOnly({ scratch, projects, parallel, run }) {
  const file = join(scratch, 'par');
  const list = ['projects', 'list', '--all', '-o', 'ndjson', '--parallel', String(parallel)];
  const parallelRun = await run(`svc --parallel ${parallel}`, 'node', [SVC_BIN, ...list], { stdoutFile: file });
  const counted = await countProjects(file);
  const rows = [
    [
      parallelRun.name,
      ms(parallelRun.wallMs),
      ms(parallelRun.cpuMs),
      mb(parallelRun.peakRssMb),
      String(parallelRun.requests),
      String(parallelRun.connections),
      `${counted.distinct} distinct of ${counted.records}`,
      String(parallelRun.exitCode),
    ],
  ];
  return {
    table: markdownTable(['client', 'wall', 'CPU', 'peak RSS', 'requests', 'connections', 'records', 'exit'], rows),
    checks: [
      idealCheck(parallelRun, parallel),
      [
        'every project exactly once',
        counted.distinct === projects && counted.records === projects,
        `${counted.distinct} distinct of ${counted.records}`,
      ],
    ],
  };
}

export async function benchParallelListing({ sandbox, scratch, projects, parallel, withPeers, parallelOnly, run }) {
  if (parallelOnly) return benchParallelOnly({ scratch, projects, parallel, run });
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
  const parallelRun = await run(`svc --parallel ${parallel}`, 'node', [SVC_BIN, ...list, '--parallel', String(parallel)], {
    stdoutFile: files.parallel,
  });
  const runs = [floor, sequential, parallelRun];
  const missing = [];
  for (const client of listingClients().filter((c) => withPeers && PEERS.includes(c.name))) {
    if (client.missing) {
      missing.push([client.name, client.missing]);
      continue;
    }
    client.prepare?.();
    const { command, args, env, cwd } = client.run(sandbox.url, sandbox.tokens.admin);
    const file = join(scratch, `peer-${runs.length}`);
    const peer = await run(client.name, command, args, { stdoutFile: file, cwd, env });
    runs.push({ ...peer, counted: await countProjects(file) });
  }
  const expected = await idsIn(files.sequential);
  const got = await idsIn(files.parallel);
  const floorCount = (await idsIn(files.floor)).length;
  const sameAsSequential = expected.length === projects && got.length === projects && got.every((id, i) => id === expected[i]);
  const rows = runs.map((r) => [
    r.name,
    ms(r.wallMs),
    ratio(floor.wallMs / r.wallMs),
    ms(r.cpuMs),
    mb(r.peakRssMb),
    String(r.requests),
    String(r.connections),
    r.counted ? `${r.counted.distinct} distinct of ${r.counted.records}` : '',
    String(r.exitCode),
  ]);
  for (const [name, why] of missing) rows.push([name, `missing: ${why}`, '', '', '', '', '', '', '']);
  const speedUp = floor.wallMs / parallelRun.wallMs;
  const checks = [
    [`--parallel ${parallel} at least 6× faster than the floor`, speedUp >= 6, ratio(speedUp)],
    [
      'records exactly once and in the sequential order',
      sameAsSequential,
      `${got.length} of ${expected.length} in order: ${sameAsSequential} (the floor printed ${floorCount})`,
    ],
    [`peak RSS of --parallel ${parallel} at most 200 MB`, parallelRun.peakRssMb <= 200, mb(parallelRun.peakRssMb)],
    idealCheck(parallelRun, parallel),
  ];
  return {
    table: markdownTable(['client', 'wall', 'speed vs floor', 'CPU', 'peak RSS', 'requests', 'connections', 'records', 'exit'], rows),
    checks,
  };
}
