import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, mb, ms } from './lib/table.js';

const PROJECTS = 5000;
const SANDBOX = { projects: PROJECTS, moveMs: 20, moveConcurrency: 50 };
const ARGS = ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', '--debug'];
const FINAL = new Set(['finished', 'failed', 'cleanup failed']);

/** Moves 5,000 projects with one command and reads its cost from the sandbox and from `--debug`. */
export async function benchMoves({ timeoutMs, log }) {
  if (!existsSync(join(ROOT, 'dist/commands/storage-move/index.js'))) {
    return { missing: 'the storage-move command is not in dist/ (not written or not built yet)' };
  }
  const sandbox = await startSandboxProcess(SANDBOX);
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-moves-'));
  try {
    const before = await sandbox.stats();
    const stderrFile = join(scratch, 'stderr');
    const run = await measure(process.execPath, [SVC_BIN, ...ARGS], {
      env: { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin },
      stderrFile,
      timeoutMs,
    });
    const delta = statsDelta(before, await sandbox.stats());
    const moves = await sandbox.moves('project');
    const remaining = (await sandbox.projectIdsOnStorage('default')).length;
    const perPoll = [...readFileSync(stderrFile, 'utf8').matchAll(/poll \d+: (\d+) requests/g)].map((m) => Number(m[1]));
    const lastFinishedAt = Math.max(...moves.filter((m) => FINAL.has(m.state)).map((m) => m.updatedAt));
    const lastLine = readFileSync(stderrFile, 'utf8').trim().split('\n').filter((l) => !l.startsWith('[debug]')).pop() ?? '';
    log(`  storage moves: ${ms(run.wallMs)}, exit ${run.exitCode}, ${delta.requests} requests, ${perPoll.length} polls`);
    return {
      run,
      delta,
      moves: moves.length,
      finished: moves.filter((m) => m.state === 'finished').length,
      remaining,
      polls: perPoll.length,
      perPollMedian: median(perPoll),
      perPollMax: perPoll.length ? Math.max(...perPoll) : NaN,
      tailMs: run.endedAt - lastFinishedAt,
      lastLine,
    };
  } finally {
    await sandbox.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function renderMoves(result) {
  const title = `### Storage moves: ${PROJECTS.toLocaleString('en-US')} projects, default → storage2 (sandbox: move steps of ${SANDBOX.moveMs} ms, ${SANDBOX.moveConcurrency} moves at once)`;
  if (result.missing) return `${title}\n\nsvc storage-move: missing (${result.missing}).`;
  const r = result;
  const rows = [
    [
      ms(r.run.wallMs),
      `${r.run.exitCode}`,
      `${r.finished}/${PROJECTS} finished, ${r.remaining} left on default`,
      String(r.delta.requests),
      String(r.polls),
      `${r.perPollMedian} (max ${r.perPollMax})`,
      ms(r.tailMs),
      ms(r.run.cpuMs),
      mb(r.run.peakRssMb),
    ],
  ];
  return [
    title,
    '',
    markdownTable(
      ['wall', 'exit', 'result', 'requests', 'polls', 'requests per poll (median)', 'last move final → exit', 'CPU', 'peak RSS'],
      rows,
    ),
    '',
    `Command: \`SVC_URL=$B SVC_TOKEN=$T svc ${ARGS.join(' ')}\` (requests per poll from its \`--debug\` lines; total requests and move times from the sandbox). Last line on stderr: \`${r.lastLine}\``,
  ].join('\n');
}
