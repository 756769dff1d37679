import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countProjects } from './lib/count.js';
import { listingClients } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms, perRecord, ratio, verdict } from './lib/table.js';

/** Keyset listing's least possible cost: one request per full page of 100 and the final empty page. */
export function minimumRequests(projects) {
  return Math.floor(projects / 100) + 1;
}

async function runOnce(client, sandbox, outFile, timeoutMs) {
  const { command, args, env, cwd } = client.run(sandbox.url, sandbox.tokens.admin);
  const before = await sandbox.stats();
  const result = await measure(command, args, { env, stdoutFile: outFile, cwd, timeoutMs });
  const after = await sandbox.stats();
  const counted = await countProjects(outFile);
  return { ...result, ...statsDelta(before, after), ...counted };
}

function completeness(runs, expected) {
  const bad = runs.find((r) => r.exitCode !== 0 || r.records !== expected || r.distinct !== expected);
  if (!bad) return `yes (${expected.toLocaleString('en-US')} distinct)`;
  const why = bad.timedOut ? 'timed out' : bad.exitCode !== 0 ? `exit ${bad.exitCode}` : 'exit 0';
  const first = bad.stderr
    .split('\n')
    .find((l) => l.trim())
    ?.slice(0, 90);
  return `NO: ${bad.distinct.toLocaleString('en-US')} distinct of ${bad.records.toLocaleString('en-US')} printed, ${why}${first ? ` ("${first.replace(/\|/g, '/')}")` : ''}`;
}

/** Lists every project with each client `runs` times, interleaved, against one sandbox. */
export async function benchListingSize(projects, runs, { timeoutMs, log }) {
  const clients = listingClients();
  for (const c of clients) if (!c.missing) c.prepare?.();
  const sandbox = await startSandboxProcess({ projects });
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-out-'));
  const results = new Map(clients.map((c) => [c.name, []]));
  try {
    const svc = clients[0];
    await runOnce(svc, sandbox, join(scratch, 'warm-up'), timeoutMs);
    for (let i = 1; i <= runs; i++) {
      for (const client of clients) {
        if (client.missing) continue;
        const run = await runOnce(client, sandbox, join(scratch, 'out'), timeoutMs);
        results.get(client.name).push(run);
        log(`  ${projects} projects, run ${i}/${runs}, ${client.name}: ${ms(run.wallMs)}, exit ${run.exitCode}, ${run.distinct} distinct`);
      }
    }
  } finally {
    await sandbox.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = clients.map((client) => {
    const list = results.get(client.name);
    return {
      client,
      runs: list.length,
      wallMs: median(list.map((r) => r.wallMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      peakRssMb: median(list.map((r) => r.peakRssMb)),
      requests: median(list.map((r) => r.requests)),
      connections: median(list.map((r) => r.connections)),
      complete: list.length ? completeness(list, projects) : undefined,
      allComplete: list.length > 0 && list.every((r) => r.exitCode === 0 && r.records === projects && r.distinct === projects),
    };
  });
  return { projects, runs, summary };
}

export function renderListingSize({ projects, runs, summary }) {
  const loop = summary.find((s) => s.client.keepAlive);
  const rows = summary.map((s) =>
    s.client.missing
      ? [s.client.name, s.client.pagination, `missing: ${s.client.missing}`, '', '', '', '', '', '', '', '']
      : [
          s.client.name,
          s.client.pagination,
          ms(s.wallMs),
          ratio(s.wallMs / loop.wallMs),
          ms(s.cpuMs),
          ratio(s.cpuMs / loop.cpuMs),
          perRecord(s.cpuMs, projects),
          mb(s.peakRssMb),
          String(s.requests),
          String(s.connections),
          s.complete,
        ],
  );
  return [
    `### Listing every project: ${projects.toLocaleString('en-US')} projects (median of ${runs} runs)`,
    '',
    markdownTable(
      [
        'client',
        'paging',
        'wall',
        'wall × loop',
        'CPU (user+sys)',
        'CPU × loop',
        'CPU per record',
        'peak RSS',
        'requests',
        'connections',
        'every project once',
      ],
      rows,
    ),
  ].join('\n');
}

/** The targets from the issue, checked on the measured medians. */
export function listingTargets(sizes) {
  const lines = [];
  const svcOf = (size) => size.summary.find((s) => s.client.name === 'svc');
  for (const size of sizes) {
    const svc = svcOf(size);
    const loop = size.summary.find((s) => s.client.keepAlive);
    const python = size.summary.find((s) => s.client.pythonCli);
    const n = size.projects.toLocaleString('en-US');
    const min = minimumRequests(size.projects);
    lines.push(`- ${n}: every project exactly once in every run: ${verdict(svc.allComplete)}`);
    lines.push(
      `- ${n}: requests = ${min} (one per page of 100 plus the final empty page): ${svc.requests} → ${verdict(svc.requests === min)}`,
    );
    lines.push(`- ${n}: one TCP connection: ${svc.connections} → ${verdict(svc.connections === 1)}`);
    lines.push(
      `- ${n}: wall ≤ 1.15× the bare keep-alive loop: ${ratio(svc.wallMs / loop.wallMs)} → ${verdict(svc.wallMs <= 1.15 * loop.wallMs)}`,
    );
    lines.push(`- ${n}: CPU ≤ 1.3× the bare keep-alive loop: ${ratio(svc.cpuMs / loop.cpuMs)} → ${verdict(svc.cpuMs <= 1.3 * loop.cpuMs)}`);
    const undiciLoop = size.summary.find((s) => s.client.undiciLoop);
    lines.push(
      `- ${n}, for reference: the same loop on undici costs ${ratio(undiciLoop.wallMs / loop.wallMs)} the wall and ${ratio(undiciLoop.cpuMs / loop.cpuMs)} the CPU of the node:http loop; svc costs ${ratio(svc.wallMs / undiciLoop.wallMs)} the wall and ${ratio(svc.cpuMs / undiciLoop.cpuMs)} the CPU of the undici loop`,
    );
    lines.push(
      python.runs
        ? `- ${n}: ≥ 3× faster than the python-gitlab CLI: ${ratio(python.wallMs / svc.wallMs)} → ${verdict(python.wallMs >= 3 * svc.wallMs)}`
        : `- ${n}: ≥ 3× faster than the python-gitlab CLI: not checked (${python.client.missing})`,
    );
    lines.push(`- ${n}: peak RSS < 150 MB: ${mb(svc.peakRssMb)} → ${verdict(svc.peakRssMb < 150)}`);
  }
  if (sizes.length >= 2) {
    const [small, large] = [svcOf(sizes[0]), svcOf(sizes[sizes.length - 1])];
    const growth = large.peakRssMb / small.peakRssMb - 1;
    lines.push(
      `- peak RSS at ${sizes[sizes.length - 1].projects.toLocaleString('en-US')} vs ${sizes[0].projects.toLocaleString('en-US')} within 20%: ${(growth * 100).toFixed(1)}% → ${verdict(Math.abs(growth) <= 0.2)}`,
    );
  }
  return ['Targets for svc:', '', ...lines].join('\n');
}

export function listingCommands() {
  return listingClients().map((c) => `- ${c.name}: \`${c.shown}\``);
}
