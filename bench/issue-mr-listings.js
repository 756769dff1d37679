// First page of the instance- and group-wide issue and merge request lists in a large sandbox:
// the time the sandbox takes to answer the first request of each (nothing cached for it yet), then the
// median of --runs more (cached), once the sandbox is idle after start-up.
// Usage: npm run build && node bench/issue-mr-listings.js [--projects 100000] [--runs 5]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startSandbox } from '../dist/sandbox/index.js';

const { values } = parseArgs({ options: { projects: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } } });
const projects = Number(values.projects);
const runs = Number(values.runs);

const started = performance.now();
const sandbox = await startSandbox({ port: 0, projects });
process.stderr.write(`sandbox with ${projects} projects up in ${Math.round(performance.now() - started)} ms\n`);
// The sandbox sorts its projects in the background after start-up; measure once it is idle.
await new Promise((done) => setTimeout(done, 5000));

const ROUTES = [
  ['issues --instance', '/issues?scope=all&state=opened'],
  ['issues --group acme', '/groups/1/issues?state=opened'],
  ['mr list --instance', '/merge_requests?scope=all&state=opened'],
  ['mr list --group acme', '/groups/1/merge_requests?state=opened'],
  ['issues --instance (jdoe, created_by_me)', '/issues'],
];

async function timed(path, token) {
  const t = performance.now();
  const res = await fetch(`${sandbox.url}/api/v4${path}${path.includes('?') ? '&' : '?'}per_page=20`, {
    headers: { 'PRIVATE-TOKEN': token },
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t, count: body.length, total: res.headers.get('x-total') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(
  `| first page (20 records), ${projects} projects | median of ${runs} | first request | records |\n|---|---|---|---|\n`,
);
for (const [name, path] of ROUTES) {
  const token = name.includes('jdoe') ? sandbox.tokens.user : sandbox.tokens.admin;
  const first = await timed(path, token);
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await timed(path, token)).ms);
  process.stdout.write(`| ${name} | ${median(times).toFixed(0)} ms | ${first.ms.toFixed(0)} ms | ${first.count} |\n`);
}
await sandbox.close();
