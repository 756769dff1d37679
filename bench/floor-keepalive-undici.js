// The same bare keep-alive loop as floor-keepalive.js, on undici (the HTTP library svc is built on)
// instead of node:http: what the library itself costs a client that lists every project.
// usage: node bench/floor-keepalive-undici.js URL TOKEN
import { Agent } from 'undici';

const [base, token] = process.argv.slice(2);
const agent = new Agent({ keepAliveTimeout: 30_000 });
const NEXT = /<([^>]+)>;\s*rel="next"/;

async function fetchPage(url) {
  const { origin, pathname, search } = new URL(url);
  const res = await agent.request({
    origin,
    path: pathname + search,
    method: 'GET',
    headers: { 'private-token': token, accept: 'application/json' },
  });
  const text = await res.body.text();
  // undici frees the connection one turn after the body ends; a request sent sooner opens a second one.
  await new Promise((resolve) => setImmediate(resolve));
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  return { records: JSON.parse(text), link: res.headers.link };
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
await agent.close();
