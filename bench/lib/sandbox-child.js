// Runs the built sandbox in its own process, so its CPU time and memory stay out of the
// client's figures. Prints one JSON line {url, tokens} and answers IPC queries.
import { startSandbox } from '../../dist/sandbox/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const sandbox = await startSandbox({ port: 0, ...options });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, tokens: sandbox.tokens })}\n`);

const queries = {
  stats: () => sandbox.stats(),
  moves: (kind) => sandbox.state.moves(kind),
  requests: () => sandbox.requests().map(({ method, rawPath, rawQuery, status }) => ({ method, rawPath, rawQuery, status })),
  clearRequests: () => sandbox.clearRequests(),
  projectIdsOnStorage: (storage) => sandbox.state.projectIdsOnStorage(storage),
};

process.on('message', ({ id, query, arg }) => {
  process.send({ id, result: queries[query](arg) ?? null });
});
process.on('disconnect', () => {
  sandbox.close().then(() => process.exit(0));
});
