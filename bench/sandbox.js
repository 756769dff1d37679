// `node bench/sandbox.js [--projects 100000] [--repeats 50]`: start time, server time of pages of
// 100 and memory of the built sandbox (run `npm run build` first). Server time is the time the
// sandbox spends on a request, from its own request log. Pages are requested from 2 s after start
// (the project orderings are built in the background after listening); the first request of a kind
// is shown apart because it may build a per-viewer list. Prints markdown tables; exits 1 if a bound
// is missed.
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { markdownTable, mb, verdict } from './lib/table.js';

const { values } = parseArgs({ options: { projects: { type: 'string', default: '100000' }, repeats: { type: 'string', default: '50' } } });
const projects = Number(values.projects);
const repeats = Number(values.repeats);

const serverMs = [];
const t0 = performance.now();
const { startSandbox } = await import('../dist/sandbox/index.js');
const t1 = performance.now();
const sandbox = await startSandbox({
  port: 0,
  projects,
  log: (line) => {
    const m = / (\d+\.\d)ms$/.exec(line);
    if (m) serverMs.push(Number(m[1]));
  },
});
const t2 = performance.now();
const rssAfterStart = process.memoryUsage().rss / 1048576;

function get(path, token) {
  return new Promise((resolve, reject) => {
    const u = new URL(sandbox.url);
    const headers = token ? { 'PRIVATE-TOKEN': token } : {};
    const r = request({ host: u.hostname, port: u.port, path: `/api/v4${path}`, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    r.on('error', reject);
    r.end();
  });
}

async function timed(path, token) {
  await get(path, token);
  return serverMs[serverMs.length - 1];
}

const last = Math.ceil(projects / 100);
const { admin, user } = sandbox.tokens;
const pages = [
  ['admin, first page', '/projects?per_page=100', admin],
  ['admin, middle page', `/projects?per_page=100&page=${Math.max(1, Math.floor(last / 2))}`, admin],
  ['admin, page 500 (max offset)', '/projects?per_page=100&page=500', admin],
  ['admin, keyset deep', `/projects?pagination=keyset&order_by=id&per_page=100&id_before=${Math.floor(projects / 3)}`, admin],
  ['admin, order_by=name', '/projects?per_page=100&order_by=name&sort=asc&page=7', admin],
  ['admin, order_by=star_count', '/projects?per_page=100&order_by=star_count&page=3', admin],
  ['admin, order_by=last_activity_at', '/projects?per_page=100&order_by=last_activity_at&page=3', admin],
  ['admin, repository_storage', '/projects?per_page=100&repository_storage=default&page=9', admin],
  ['user, first page', '/projects?per_page=100', user],
  ['user, order_by=name', '/projects?per_page=100&order_by=name&page=4', user],
  ['anonymous, first page', '/projects?per_page=100', null],
  ['admin, users', '/users?per_page=100', admin],
  ['admin, groups', '/groups?per_page=100', admin],
];

await new Promise((resolve) => setTimeout(resolve, 2000));
const rows = [];
let worstMedian = 0;
let worstMax = 0;
for (const [name, path, token] of pages) {
  const first = await timed(path, token);
  for (let i = 0; i < 20; i++) await timed(path, token);
  const runs = [];
  for (let i = 0; i < repeats; i++) runs.push(await timed(path, token));
  runs.sort((a, b) => a - b);
  const median = runs[Math.floor(runs.length / 2)];
  const max = runs[runs.length - 1];
  worstMedian = Math.max(worstMedian, median);
  worstMax = Math.max(worstMax, max);
  rows.push([name, `${first.toFixed(1)} ms`, `${median.toFixed(1)} ms`, `${max.toFixed(1)} ms`]);
}
const rss = process.memoryUsage().rss / 1048576;
await sandbox.close();

const startMs = t2 - t1;
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(', ');
process.stdout.write(`Sandbox with ${projects.toLocaleString('en-US')} projects (node ${process.version}, load average ${load})\n\n`);
process.stdout.write(
  `${markdownTable(
    ['figure', 'value', 'bound', 'verdict'],
    [
      ['module load', `${Math.round(t1 - t0)} ms`, '', ''],
      ['startSandbox()', `${Math.round(startMs)} ms`, '≤ 1000 ms', verdict(startMs <= 1000)],
      ['RSS after start', mb(rssAfterStart), '', ''],
      ['RSS after the pages below', mb(rss), '≤ 250 MB', verdict(rss <= 250)],
      ['page of 100, worst median', `${worstMedian.toFixed(1)} ms`, '≤ 2 ms', verdict(worstMedian <= 2)],
      ['page of 100, worst single request', `${worstMax.toFixed(1)} ms`, '', ''],
    ],
  )}\n\n`,
);
process.stdout.write(`${markdownTable(['page of 100', 'first request', `median of ${repeats}`, 'max'], rows)}\n`);
process.exitCode = startMs <= 1000 && rss <= 250 && worstMedian <= 2 ? 0 : 1;
