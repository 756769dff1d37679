// `node bench/job-log-follow.js` (after `npm run build`): what `svc jobs log --follow` costs the
// server per minute (issue #13), while the job is queued and its log stays empty (idle), then while
// it runs and writes about a line a second (output flowing). The job's phases come from the
// sandbox's SANDBOX_JOB_QUEUED_SECONDS / SANDBOX_JOB_RUNNING_SECONDS; requests are counted by the
// sandbox and split at the moment the job starts running.
// Options: --idle-s 60  --flow-s 60  (the follow uses its default interval)
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SVC_BIN } from './lib/clients.js';
import { measure } from './lib/measure.js';
import { startSandboxProcess } from './lib/sandbox.js';
import { markdownTable, ms } from './lib/table.js';

const { values } = parseArgs({ options: { 'idle-s': { type: 'string', default: '60' }, 'flow-s': { type: 'string', default: '60' } } });
const idleS = Number(values['idle-s']);
const flowS = Number(values['flow-s']);
const CREATED_STEP_MS = 100;
const log = (line) => process.stderr.write(`${line}\n`);

const sandbox = await startSandboxProcess({ projects: 6 });
const { api } = sandbox;
const followed = async () => (await sandbox.requests()).filter((r) => r.rawPath.includes('/jobs/'));

let table;
try {
  const pipeline = await api('POST', '/projects/1/pipeline', {
    ref: 'main',
    variables: [
      { key: 'SANDBOX_JOB_QUEUED_SECONDS', value: String(idleS) },
      { key: 'SANDBOX_JOB_RUNNING_SECONDS', value: String(flowS) },
    ],
  });
  const job = (await api('GET', `/projects/1/pipelines/${pipeline.id}/jobs`)).find((j) => j.name === 'test');
  await sandbox.clearRequests();
  const runningAt = Date.parse(pipeline.created_at) + CREATED_STEP_MS + idleS * 1000;
  let idleRequests;
  const split = setTimeout(async () => {
    idleRequests = (await followed()).length;
  }, runningAt - Date.now());
  log(`  following job ${job.id}: ${idleS} s queued, then ${flowS} s running`);
  const stdoutFile = join(tmpdir(), `svc-bench-log-${process.pid}`);
  const run = await measure(process.execPath, [SVC_BIN, 'jobs', 'log', '1', String(job.id), '--follow'], {
    env: { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin },
    stdoutFile,
    timeoutMs: (idleS + flowS + 120) * 1000,
  });
  clearTimeout(split);
  const all = (await followed()).length;
  const lines = readFileSync(stdoutFile, 'utf8').split('\n').length - 1;
  rmSync(stdoutFile, { force: true });
  const flowRequests = all - idleRequests;
  log(`  exit ${run.exitCode} after ${ms(run.wallMs)}; ${all} requests, ${lines} log lines printed`);
  table = markdownTable(
    ['phase', 'seconds', 'requests', 'requests per minute'],
    [
      ['idle (queued, empty log)', String(idleS), String(idleRequests), ((idleRequests * 60) / idleS).toFixed(1)],
      ['output flowing (~1 line/s)', String(flowS), String(flowRequests), ((flowRequests * 60) / flowS).toFixed(1)],
    ],
  );
} finally {
  await sandbox.close();
}

process.stdout.write(`svc jobs log 1 JOB --follow (default interval 2 s; each read is the job, then its whole log)\n\n${table}\n`);
