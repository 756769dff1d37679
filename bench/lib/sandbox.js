import { fork } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./sandbox-child.js', import.meta.url));

/** Starts the sandbox in a child process; resolves once it listens. */
export function startSandboxProcess(options) {
  const child = fork(CHILD, [JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let nextId = 0;
  const pending = new Map();
  child.on('message', ({ id, result }) => {
    pending.get(id)?.(result);
    pending.delete(id);
  });
  const ask = (query, arg) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      child.send({ id, query, arg });
    });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code} before listening`)));
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      const { url, tokens } = JSON.parse(buffered.slice(0, newline));
      resolve({
        url,
        tokens,
        pid: child.pid,
        /** Counters from the stats route, fetched on a connection of its own. */
        stats: () => fetchStats(url),
        /** One API call as the administrator, answered as parsed JSON. */
        api: async (method, path, json) => {
          const res = await fetch(`${url}/api/v4${path}`, {
            method,
            headers: { 'PRIVATE-TOKEN': tokens.admin, 'content-type': 'application/json' },
            body: json === undefined ? undefined : JSON.stringify(json),
          });
          return res.json();
        },
        moves: (kind = 'project') => ask('moves', kind),
        requests: () => ask('requests'),
        clearRequests: () => ask('clearRequests'),
        projectIdsOnStorage: (storage) => ask('projectIdsOnStorage', storage),
        close: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.disconnect();
          }),
      });
    });
  });
}

function fetchStats(url) {
  return new Promise((resolve, reject) => {
    get(`${url}/-/sandbox/stats`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject);
  });
}

/**
 * What one client run cost the server: requests, and connections opened (the `after`
 * stats request opens one connection of its own, which is not the client's).
 */
export function statsDelta(before, after) {
  return {
    requests: after.requests.total - before.requests.total,
    connections: after.connections.opened - before.connections.opened - 1,
    // What the sandbox's latency added up to over the run's requests (0 without latency).
    delayMs: (after.latency?.totalDelayMs ?? 0) - (before.latency?.totalDelayMs ?? 0),
    faults: Object.values(after.faults).reduce((a, b) => a + b, 0) - Object.values(before.faults).reduce((a, b) => a + b, 0),
  };
}
