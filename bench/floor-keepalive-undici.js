// The same bare keep-alive loop as floor-keepalive.js, on undici (the HTTP library svc is built on)
// instead of node:http: what the library itself costs a client that lists every project.
// usage: node bench/floor-keepalive-undici.js URL TOKEN
import { Agent } from 'undici';
import { printEveryProject } from './lib/floor-loop.js';

const [base, token] = process.argv.slice(2);
const agent = new Agent({ keepAliveTimeout: 30_000 });

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

await printEveryProject(base, fetchPage);
await agent.close();
