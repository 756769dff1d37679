// `node bench/output.js > /dev/null`: what writeList itself costs for 20,000 project-like records in pages
// of 100 (no HTTP), per format, so one build's output layer can be compared with another's (#16 item 3).
// Options: --writer dist/output/writer.js (another build's)  --records 20000  --runs 7
// The figures go to stderr; stdout receives the output and should go to /dev/null or a file.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Chalk } from 'chalk';
import { median } from './lib/measure.js';

const { values } = parseArgs({
  options: {
    writer: { type: 'string', default: 'dist/output/writer.js' },
    records: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '7' },
  },
});
const { writeList } = await import(pathToFileURL(resolve(values.writer)).href);
const total = Number(values.records);
const records = Array.from({ length: total }, (_, i) => ({
  id: i + 1,
  name: `Project ${i + 1}`,
  path_with_namespace: `group/subgroup/project-${i + 1}`,
  description: 'd'.repeat(200),
  visibility: 'private',
  namespace: { id: 7, full_path: 'group/subgroup' },
  tag_list: ['a', 'b'],
  last_activity_at: '2024-01-01T00:00:00.000Z',
}));

/** The records a page at a time, with the turn of the event loop a request would take between pages. */
async function* arriving() {
  for (let start = 0; start < total; start += 100) {
    await new Promise((done) => setImmediate(done));
    yield* records.slice(start, start + 100);
  }
}

const columns = ['id', 'path_with_namespace', 'visibility', 'last_activity_at'];
const cases = [
  ['ndjson', { format: 'ndjson', stdoutIsTTY: false }],
  ['tsv', { format: 'tsv', stdoutIsTTY: false }],
  ['json', { format: 'json', stdoutIsTTY: false }],
];
for (const [name, settings] of cases) {
  const cpu = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const before = process.cpuUsage();
    await writeList(process.stdout, { ...settings, chalk: new Chalk({ level: 0 }) }, arriving(), columns);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  process.stderr.write(`${values.writer}: -o ${name}, ${total} records: ${median(cpu).toFixed(0)} ms CPU (median of ${values.runs})\n`);
}
