// The bare keep-alive loop: what a minimal Node client costs to list every project as svc does.
// One connection kept alive, keyset by id (newest first, 100 per page, as `svc projects list --all`
// asks), following Link rel="next"; each page parsed and printed as NDJSON in one write.
// usage: node bench/floor-keepalive.js URL TOKEN
import { Agent, get } from 'node:http';

const [base, token] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const NEXT = /<([^>]+)>;\s*rel="next"/;

function fetchPage(url) {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { 'private-token': token, accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        resolve({ records: JSON.parse(Buffer.concat(chunks).toString('utf8')), link: res.headers.link });
      });
    }).on('error', reject);
  });
}

function write(text) {
  return new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
}

let next = `${base}/api/v4/projects?per_page=100&pagination=keyset&order_by=id&sort=desc`;
while (next) {
  const { records, link } = await fetchPage(next);
  let text = '';
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  if (text) await write(text);
  next = records.length ? NEXT.exec(link ?? '')?.[1] : undefined;
}
agent.destroy();
