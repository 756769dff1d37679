// `node bench/pipeline-wait.js` (after `npm run build`): what `svc pipeline wait --follow-downstream`
// costs the server per poll, for pipeline trees of 1, 5 and 20 pipelines (issue #13).
// Each tree is a chain of child and multi-project pipelines (SANDBOX_DOWNSTREAM), whose jobs run
// --job-s seconds, so every pipeline above the running one is still running (strategy depend).
// Requests are counted by the sandbox; a poll starts with the read of the root pipeline.
// Options: --sizes 1,5,20  --interval 0.5  --job-s 1
import { parseArgs } from 'node:util';
import { SVC_BIN } from './lib/clients.js';
import { measure } from './lib/measure.js';
import { startSandboxProcess, statsDelta } from './lib/sandbox.js';
import { markdownTable, ms } from './lib/table.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,5,20' },
    interval: { type: 'string', default: '0.5' },
    'job-s': { type: 'string', default: '1' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const log = (line) => process.stderr.write(`${line}\n`);

const sandbox = await startSandboxProcess({ projects: 6 });
const { api } = sandbox;

const rows = [];
try {
  const downstreamProject = (await api('GET', '/projects/3')).path_with_namespace;
  for (const size of sizes) {
    const hops = Array.from({ length: size - 1 }, (_, i) => (i % 2 === 0 ? 'child' : downstreamProject));
    const variables = [{ key: 'SANDBOX_JOB_RUNNING_SECONDS', value: values['job-s'] }];
    if (hops.length) variables.push({ key: 'SANDBOX_DOWNSTREAM', value: hops.join('>') });
    const root = await api('POST', '/projects/1/pipeline', { ref: 'main', variables });
    await sandbox.clearRequests();
    const before = await sandbox.stats();
    const args = ['pipeline', 'wait', '1', String(root.id), '--follow-downstream', '--interval', values.interval];
    const run = await measure(process.execPath, [SVC_BIN, ...args], { env: { SVC_URL: sandbox.url, SVC_TOKEN: sandbox.tokens.admin } });
    const delta = statsDelta(before, await sandbox.stats());
    const requests = (await sandbox.requests()).filter((r) => !r.rawPath.startsWith('/-/'));
    const rootPath = `/api/v4/projects/1/pipelines/${root.id}`;
    const perPoll = [];
    for (const r of requests) {
      if (r.method === 'GET' && r.rawPath === rootPath) perPoll.push(0);
      perPoll[perPoll.length - 1] += 1;
    }
    const pipelines = new Set(requests.map((r) => r.rawPath.match(/pipelines\/(\d+)/)?.[1]).filter(Boolean)).size;
    const mean = perPoll.reduce((a, b) => a + b, 0) / perPoll.length;
    log(`  tree of ${size}: exit ${run.exitCode}, ${ms(run.wallMs)}, ${delta.requests} requests over ${perPoll.length} polls`);
    rows.push([
      String(size),
      String(pipelines),
      String(perPoll.length),
      String(delta.requests),
      mean.toFixed(1),
      String(Math.max(...perPoll)),
      String(2 * size),
      String(run.exitCode),
      ms(run.wallMs),
    ]);
  }
} finally {
  await sandbox.close();
}

process.stdout.write(
  `svc pipeline wait 1 ID --follow-downstream --interval ${values.interval} (jobs run ${values['job-s']} s; a poll: one read per running pipeline, plus its bridges while one has not started its pipeline)\n\n`,
);
process.stdout.write(
  `${markdownTable(
    [
      'pipelines in tree',
      'pipelines read',
      'polls',
      'requests',
      'requests/poll (mean)',
      'requests/poll (max)',
      'bound (2n)',
      'exit',
      'wall',
    ],
    rows,
  )}\n`,
);
