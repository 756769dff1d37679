import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms, ratio, verdict } from './lib/table.js';

const PROJECTS = 5000;
const SANDBOX = { projects: PROJECTS, moveMs: 20, moveConcurrency: 50 };
const SCHEDULE = ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', '--debug'];
/** Every kind (the default), then projects alone: snippets cannot be listed by storage, so their wait differs. */
const VARIANTS = [
  { args: SCHEDULE, kinds: ['project', 'snippet', 'group'] },
  { args: [...SCHEDULE, '--kind', 'projects'], kinds: ['project'] },
];
const FINAL = new Set(['finished', 'failed', 'cleanup failed']);

/** The rolling mode against the bulk path on the same instance (issue #9 item 10: within 1.5x). */
const ROLLING_PROJECTS = 2000;
const ROLLING_TARGET = 1.5;
const PROJECTS_ONLY = ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--debug'];

function rollingVariants(interval) {
  const base = interval === undefined ? PROJECTS_ONLY : [...PROJECTS_ONLY, '--interval', interval];
  return [
    { args: [...base, '--wait'], kinds: ['project'] },
    { args: [...base, '--max-in-flight', '20'], kinds: ['project'] },
  ];
}

async function runVariant(variant, sandboxOptions, { timeoutMs, log }) {
  const sandbox = await startSandboxProcess(sandboxOptions);
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-moves-'));
  try {
    const before = await sandbox.stats();
    const stderrFile = join(scratch, 'stderr');
    const run = await measure(process.execPath, [SVC_BIN, ...variant.args], {
      env: { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin },
      stderrFile,
      timeoutMs,
    });
    const delta = statsDelta(before, await sandbox.stats());
    const moves = (await Promise.all(variant.kinds.map((kind) => sandbox.moves(kind)))).flat();
    const remaining = (await sandbox.projectIdsOnStorage('default')).length;
    const stderr = readFileSync(stderrFile, 'utf8');
    const perPoll = [...stderr.matchAll(/poll \d+: (\d+) requests/g)].map((m) => Number(m[1]));
    const lastFinalAt = Math.max(...moves.filter((m) => FINAL.has(m.state)).map((m) => m.updatedAt));
    log(
      `  storage moves (${variant.args.slice(8).join(' ') || 'all kinds'}): ${ms(run.wallMs)}, exit ${run.exitCode}, ${delta.requests} requests, ${perPoll.length} polls`,
    );
    return {
      variant,
      run,
      delta,
      moves: moves.length,
      projectsFinished: moves.filter((m) => m.kind === 'project' && m.state === 'finished').length,
      remaining,
      polls: perPoll.length,
      perPollMedian: median(perPoll),
      perPollMax: perPoll.length ? Math.max(...perPoll) : NaN,
      tailMs: run.endedAt - lastFinalAt,
      lastLine:
        stderr
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('[debug]'))
          .pop() ?? '',
    };
  } finally {
    await sandbox.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Moves 5,000 projects with one command and reads its cost from the sandbox and from `--debug`. */
export async function benchMoves(options) {
  if (!existsSync(join(ROOT, 'dist/commands/storage-move/index.js'))) {
    return { missing: 'the storage-move command is not in dist/ (not written or not built yet)' };
  }
  const results = [];
  if (options.bulkSizes) for (const variant of VARIANTS) results.push(await runVariant(variant, SANDBOX, options));
  const { moveMs, moveConcurrency, interval } = options.rolling;
  const sandbox = { projects: ROLLING_PROJECTS, moveMs, moveConcurrency };
  const rolling = [];
  for (const variant of rollingVariants(interval)) rolling.push(await runVariant(variant, sandbox, options));
  return { results, rolling, rollingSandbox: sandbox };
}

function renderRolling(rolling, sandbox) {
  const [bulk, rollingRun] = rolling;
  const factor = rollingRun.run.wallMs / bulk.run.wallMs;
  const requests = rollingRun.delta.requests / bulk.delta.requests;
  const rows = rolling.map((r) => [
    `\`svc ${r.variant.args.join(' ')}\``,
    ms(r.run.wallMs),
    String(r.run.exitCode),
    `${r.projectsFinished}/${ROLLING_PROJECTS} projects finished, ${r.remaining} left on default`,
    String(r.delta.requests),
    String(r.polls),
    ms(r.tailMs),
  ]);
  return [
    `### Rolling moves: ${ROLLING_PROJECTS.toLocaleString('en-US')} projects at --max-in-flight 20 next to the bulk path (sandbox: move steps of ${sandbox.moveMs} ms, ${sandbox.moveConcurrency} moves at once)`,
    '',
    markdownTable(['command', 'wall', 'exit', 'result', 'requests', 'polls', 'last move final → exit'], rows),
    '',
    `Rolling / bulk wall time: ${ratio(factor)} (target ≤ ${ROLLING_TARGET}×: ${verdict(factor <= ROLLING_TARGET)}); requests: ${ratio(requests)} (of which ${ROLLING_PROJECTS.toLocaleString('en-US')} are the single-container POSTs)`,
  ].join('\n');
}

export function renderMoves(result) {
  const title = `### Storage moves: ${PROJECTS.toLocaleString('en-US')} projects, default → storage2 (sandbox: move steps of ${SANDBOX.moveMs} ms, ${SANDBOX.moveConcurrency} moves at once; default poll interval 5 s)`;
  if (result.missing) return `${title}\n\nsvc storage-move: missing (${result.missing}).`;
  if (!result.results.length) return renderRolling(result.rolling, result.rollingSandbox);
  const rows = result.results.map((r) => [
    `\`svc ${r.variant.args.join(' ')}\``,
    ms(r.run.wallMs),
    String(r.run.exitCode),
    `${r.projectsFinished}/${PROJECTS} projects finished, ${r.remaining} left on default (${r.moves} moves of ${r.variant.kinds.join(', ')})`,
    String(r.delta.requests),
    String(r.polls),
    `${r.perPollMedian} (max ${r.perPollMax})`,
    ms(r.tailMs),
    ms(r.run.cpuMs),
    mb(r.run.peakRssMb),
  ]);
  return [
    title,
    '',
    markdownTable(
      ['command', 'wall', 'exit', 'result', 'requests', 'polls', 'requests per poll: median', 'last move final → exit', 'CPU', 'peak RSS'],
      rows,
    ),
    '',
    "Requests per poll come from the command's `--debug` lines (`poll N: R requests`); total requests and the time each move reached its final state from the sandbox.",
    ...result.results.map((r) => `Last line on stderr of \`${r.variant.args.slice(8).join(' ') || 'all kinds'}\`: \`${r.lastLine}\``),
    '',
    renderRolling(result.rolling, result.rollingSandbox),
  ].join('\n');
}
