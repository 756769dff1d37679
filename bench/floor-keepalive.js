// The bare keep-alive loop: what a minimal Node client costs to list every project as svc does.
// One connection kept alive (node:http); each page parsed and printed (see lib/floor-loop.js).
// usage: node bench/floor-keepalive.js URL TOKEN
import { Agent, get } from 'node:http';
import { printEveryProject } from './lib/floor-loop.js';

const [base, token] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

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

await printEveryProject(base, fetchPage);
agent.destroy();
