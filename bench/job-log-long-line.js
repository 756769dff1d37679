// `node bench/job-log-long-line.js` (after `npm run build`): how long `svc jobs log` takes for a log
// that is one long line (issue #22: 32 MiB took 15 s filtered against 1.4 s raw), served in 64 KiB
// chunks by a local node:http server; each output is checked byte for byte against the log.
// Options: --mib 32  --runs 3
import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SVC_BIN } from './lib/clients.js';
import { measure, median } from './lib/measure.js';
import { markdownTable, mb, ms } from './lib/table.js';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '32' }, runs: { type: 'string', default: '3' } } });
const size = Number(values.mib) * 1024 * 1024;
const runs = Number(values.runs);
const CHUNK = 64 * 1024;
const log = Buffer.concat([Buffer.alloc(size, 'x'), Buffer.from('\n')]);

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  let at = 0;
  const next = () => {
    while (at < log.length) {
      const piece = log.subarray(at, at + CHUNK);
      at += piece.length;
      if (!res.write(piece)) return void res.once('drain', next);
    }
    res.end();
  };
  next();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const rows = [];
try {
  for (const [name, extra] of [
    ['filtered (into a file)', []],
    ['--raw', ['--raw']],
  ]) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const stdoutFile = join(tmpdir(), `svc-bench-long-line-${process.pid}`);
      const run = await measure(process.execPath, [SVC_BIN, 'jobs', 'log', '1', '5', ...extra], {
        env: { SVC_URL: url, SVC_TOKEN: 'bench-token-0123456789' },
        stdoutFile,
      });
      const exact = readFileSync(stdoutFile).equals(log);
      rmSync(stdoutFile, { force: true });
      if (run.exitCode !== 0 || !exact) throw new Error(`${name}: exit ${run.exitCode}, output exact: ${exact}; ${run.stderr}`);
      results.push(run);
    }
    rows.push([name, ms(median(results.map((r) => r.wallMs))), mb(median(results.map((r) => r.peakRssMb)))]);
  }
} finally {
  server.close();
}

process.stdout.write(
  `svc jobs log, one line of ${values.mib} MiB, median of ${runs}\n\n${markdownTable(['mode', 'wall', 'peak RSS'], rows)}\n`,
);
