// The bulk half of bench/scale.js: archiving projects one request per item, with `svc bulk`,
// `xargs -P` with curl, and a loop of `svc` processes; then the same run under injected faults,
// and a rerun with the journal that must send nothing for the items already done.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVC_BIN } from './clients.js';
import { startSandboxProcess } from './sandbox.js';
import { markdownTable, ms, ratio, verdict } from './table.js';

const ARCHIVE_PATH = /^\/api\/v4\/projects\/(\d+)\/archive$/;

/** Ids `first`..`first + count - 1`, one per line, in a file of their own. */
function idsFile(scratch, name, first, count) {
  const file = join(scratch, name);
  writeFileSync(file, `${Array.from({ length: count }, (_, i) => String(first + i)).join('\n')}\n`);
  return file;
}

function outcomesIn(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/**
 * Each client archives projects of its own (an archived project is not archived again). The loop
 * of processes runs on a sample and its time is extrapolated to `items`: at a few hundred
 * milliseconds per process it would take longer than everything else together.
 */
export async function benchBulkArchive({ scratch, items, loopSample, maxInFlight, run }) {
  const bulkInput = idsFile(scratch, 'bulk-ids', 1, items);
  const xargsInput = idsFile(scratch, 'xargs-ids', items + 1, items);
  const loopInput = idsFile(scratch, 'loop-ids', 2 * items + 1, loopSample);
  const bulkOut = join(scratch, 'bulk-out');
  const bulk = await run(`svc bulk --max-in-flight ${maxInFlight}`, 'bash', [
    '-c',
    `node '${SVC_BIN}' bulk --max-in-flight ${maxInFlight} -- projects archive {id} < '${bulkInput}' > '${bulkOut}'`,
  ]);
  const xargs = await run(`xargs -P ${maxInFlight} curl`, 'bash', [
    '-c',
    `xargs -P ${maxInFlight} -I ID curl -sS --fail -o /dev/null -X POST -H "PRIVATE-TOKEN: $SVC_TOKEN" "$SVC_URL/api/v4/projects/ID/archive" < '${xargsInput}'`,
  ]);
  const loop = await run(`loop of svc processes (${loopSample} sampled)`, 'bash', [
    '-c',
    `while read -r id; do node '${SVC_BIN}' projects archive "$id" > /dev/null 2>&1 || exit 1; done < '${loopInput}'`,
  ]);
  const loopWallMs = (loop.wallMs * items) / loopSample;
  const loopCpuMs = (loop.cpuMs * items) / loopSample;
  const archived = new Set(outcomesIn(bulkOut).flatMap((o) => (o.ok && o.result?.archived === true ? [o.input] : []))).size;
  const rows = [
    [
      bulk.name,
      String(items),
      ms(bulk.wallMs),
      ratio(loopWallMs / bulk.wallMs),
      ms(bulk.cpuMs),
      String(bulk.requests),
      String(bulk.exitCode),
    ],
    [
      xargs.name,
      String(items),
      ms(xargs.wallMs),
      ratio(loopWallMs / xargs.wallMs),
      ms(xargs.cpuMs),
      String(xargs.requests),
      String(xargs.exitCode),
    ],
    [
      loop.name,
      `${loopSample} (×${(items / loopSample).toFixed(0)})`,
      `${ms(loop.wallMs)} → ${ms(loopWallMs)}`,
      ratio(1),
      `${ms(loop.cpuMs)} → ${ms(loopCpuMs)}`,
      String(loop.requests),
      String(loop.exitCode),
    ],
  ];
  const checks = [
    ['bulk at least 10× faster than a loop of processes (extrapolated)', loopWallMs / bulk.wallMs >= 10, ratio(loopWallMs / bulk.wallMs)],
    ['bulk at least as fast as xargs -P with curl', bulk.wallMs <= xargs.wallMs, ratio(xargs.wallMs / bulk.wallMs)],
    [
      'bulk: one request per item, every project archived',
      bulk.requests === items && archived === items,
      `${bulk.requests} requests, ${archived} archived`,
    ],
    [
      'every client ended with exit 0',
      [bulk, xargs, loop].every((r) => r.exitCode === 0),
      [bulk, xargs, loop].map((r) => r.exitCode).join(', '),
    ],
  ];
  return {
    table: markdownTable(['client', 'items', 'wall', 'speed vs loop', 'CPU', 'requests', 'exit'], rows),
    checks,
  };
}

/**
 * `svc bulk --journal` against a sandbox of its own that injects `faults`: every item ends once (ok
 * or reported), and each rerun with the journal sends requests only for the items that failed
 * before, until none is left or `maxReruns` is reached.
 */
export async function benchBulkUnderFaults({ scratch, items, maxInFlight, latencyMs, concurrency, faults, measureRun, maxReruns = 4 }) {
  const sandbox = await startSandboxProcess({ projects: items, latencyMs, maxConcurrency: concurrency, faults, faultSeed: 7 });
  const env = { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin, SVC_CONFIG_DIR: join(scratch, 'faults-config') };
  const input = idsFile(scratch, 'faults-ids', 1, items);
  const journal = join(scratch, 'faults.journal');
  const rows = [];
  const problems = [];
  let pending = new Set(Array.from({ length: items }, (_, i) => String(i + 1)));
  try {
    for (let round = 0; round <= maxReruns && pending.size > 0; round++) {
      const out = join(scratch, `faults-out-${round}`);
      await sandbox.clearRequests();
      const result = await measureRun(sandbox, env, `bulk --journal, ${round === 0 ? 'first run' : `rerun ${round}`}`, 'bash', [
        '-c',
        `node '${SVC_BIN}' bulk --max-in-flight ${maxInFlight} --journal '${journal}' -- projects archive {id} < '${input}' > '${out}'`,
      ]);
      const outcomes = outcomesIn(out);
      const inputs = outcomes.map((o) => String(o.input));
      const once = new Set(inputs).size === inputs.length && inputs.length === pending.size && inputs.every((id) => pending.has(id));
      const asked = new Set((await sandbox.requests()).map((r) => ARCHIVE_PATH.exec(r.rawPath)?.[1]).filter((id) => id !== undefined));
      const doneBefore = [...asked].filter((id) => !pending.has(id));
      if (!once) problems.push(`run ${round}: the outcomes are not exactly the ${pending.size} items left`);
      if (doneBefore.length > 0) problems.push(`run ${round}: requests for ${doneBefore.length} items already done`);
      const failed = outcomes.filter((o) => !o.ok).map((o) => String(o.input));
      rows.push([
        result.name,
        String(pending.size),
        String(outcomes.filter((o) => o.ok).length),
        String(failed.length),
        String(result.requests),
        String(result.faults),
        String(doneBefore.length),
        ms(result.wallMs),
        String(result.exitCode),
      ]);
      pending = new Set(failed);
    }
  } finally {
    await sandbox.close();
  }
  const checks = [
    [
      'under faults, every item ends exactly once in each run (ok or reported)',
      !problems.some((p) => p.includes('outcomes')),
      problems.join('; ') || 'yes',
    ],
    [
      'a rerun with --journal sends nothing for the items already done',
      !problems.some((p) => p.includes('already done')),
      rows.length > 1
        ? `${rows
            .slice(1)
            .map((r) => r[6])
            .join(', ')} requests for items already done`
        : 'no rerun needed',
    ],
    ['every item archived in the end', pending.size === 0, `${pending.size} left after ${rows.length} runs`],
  ];
  return {
    table: markdownTable(
      ['run', 'items left', 'ok', 'failed', 'requests', 'faults injected', 'requests for items done before', 'wall', 'exit'],
      rows,
    ),
    checks,
  };
}

export function checksTable(checks) {
  return markdownTable(
    ['target', 'verdict', 'measured'],
    checks.map(([target, ok, measured]) => [target, verdict(ok), measured]),
  );
}
