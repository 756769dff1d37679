import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from './scripted-server.js';
import { cleanupTempDirs, svc } from '../support/harness.js';

// #10 case 5: numbers past 2^53, and beyond a double, are carried exactly as the server wrote them.
const BODY =
  '[{"id":9007199254740993,"path_with_namespace":"a/b","visibility":"public","last_activity_at":null,"score":1e400,"ratio":0.5}]';
let server: Awaited<ReturnType<typeof startScriptedServer>>;
let url: string;
let seen: string[];

beforeAll(async () => {
  server = await startScriptedServer();
  seen = [];
  url = server.add('big', (req, res) => {
    seen.push(req.url ?? '');
    const one = /\/pipelines\//.test(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(one ? '{"id":9007199254740993,"status":"success"}' : BODY);
  });
});

afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

const env = () => ({ SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' });

describe('integers beyond 2^53', () => {
  it('are printed exactly by -o json, -o ndjson, tsv and svc api', async () => {
    const json = await svc(['projects', 'list', '-o', 'json'], { env: env() });
    expect(json.exitCode).toBe(0);
    expect(json.stdout).toBe(
      '[\n  {\n    "id": 9007199254740993,\n    "path_with_namespace": "a/b",\n    "visibility": "public",\n    "last_activity_at": null,\n    "score": 1e400,\n    "ratio": 0.5\n  }\n]\n',
    );
    const ndjson = await svc(['projects', 'list', '-o', 'ndjson'], { env: env() });
    expect(ndjson.stdout).toBe(`${BODY.slice(1, -1)}\n`);
    const tsv = await svc(['projects', 'list', '--fields', 'id,score'], { env: env() });
    expect(tsv.stdout).toBe('id\tscore\n9007199254740993\t1e400\n');
    const api = await svc(['api', 'projects', '-o', 'ndjson'], { env: env() });
    expect(api.stdout).toBe(`${BODY.slice(1, -1)}\n`);
  });

  it('an id argument is sent as the digits given', async () => {
    seen.length = 0;
    const result = await svc(['pipeline', 'get', '1', '9007199254740993', '-o', 'json', '--fields', 'id'], { env: env() });
    expect(result.exitCode).toBe(0);
    expect(seen).toEqual(['/big/api/v4/projects/1/pipelines/9007199254740993']);
    expect(result.stdout).toBe('{\n  "id": 9007199254740993\n}\n');
  });
});
