import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { startScriptedServer } from './scripted-server.js';

// Plans that act on ids the server listed: an id past 2^53 is parsed as its source text (json.ts),
// which plain subtraction and Set identity do not handle. Each id must reach its own request exactly.
const B = '9007199254740993';
const B2 = '9007199254740995';
const ROUTES: Record<string, string> = {
  '/user': '{"id":1,"username":"root","is_admin":true}',
  '/users': '[{"id":7,"username":"leaver","state":"active"}]',
  '/users/7': '{"id":7,"username":"leaver","state":"active"}',
  '/users/7/memberships': `[{"source_id":${B2},"source_name":"big2","source_type":"Project"},{"source_id":${B},"source_name":"own","source_type":"Project"},{"source_id":5,"source_name":"g","source_type":"Namespace"}]`,
  '/personal_access_tokens': `[{"id":${B},"name":"t","active":true}]`,
  '/users/7/projects': `[{"id":${B}}]`,
  '/groups/5/projects': `[{"id":${B2}},{"id":3}]`,
  [`/projects/${B}/pipeline_schedules`]: `[{"id":${B2},"description":"nightly","owner":{"id":7}}]`,
  [`/projects/${B2}/pipeline_schedules`]: '[]',
  '/projects/3/pipeline_schedules': '[]',
  '/runners/all': `[{"id":${B2},"runner_type":"instance_type","status":"stale","description":"r2"},{"id":${B},"runner_type":"instance_type","status":"stale","description":"r1"}]`,
  [`/runners/${B}`]: `{"id":${B},"contacted_at":"2020-01-01T00:00:00Z"}`,
  [`/runners/${B2}`]: `{"id":${B2},"contacted_at":"2020-01-02T00:00:00Z"}`,
};

let server: Awaited<ReturnType<typeof startScriptedServer>>;
let url: string;
const reads: string[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
  url = server.add('plans', (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/plans\/api\/v4/, '');
    reads.push(`${req.method} ${path}`);
    const body = ROUTES[path];
    if (req.method !== 'GET' || body === undefined)
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

const run = (args: string[]) => svc(args, { process: true, env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } });

describe('plans over ids past 2^53', () => {
  it('users offboard reads each project once, skips the own project and names every id exactly', async () => {
    reads.length = 0;
    expect(await run(['users', 'offboard', 'leaver', '--transfer-schedules-to', 'root', '--dry-run'])).toEqual({
      exitCode: 0,
      stdout:
        'step\ttarget\n' +
        `revoke\ttoken t (${B})\n` +
        `take over\tschedule ${B2} "nightly" of project ${B}\n` +
        `remove from\tproject big2 (${B2})\n` +
        'remove from\tgroup g (5)\n' +
        'block\tuser leaver (7)\n',
      stderr:
        'dry run: offboarding leaver (7) takes 1 token(s) to revoke, 1 schedule(s) to take over, 2 membership(s) to remove, then the block; nothing was changed\n',
    });
    expect(reads.filter((r) => r.endsWith('/pipeline_schedules'))).toEqual([
      'GET /projects/3/pipeline_schedules',
      `GET /projects/${B}/pipeline_schedules`,
      `GET /projects/${B2}/pipeline_schedules`,
    ]);
  });

  it('runners prune --older-than orders the plan by id and reads each runner by its exact id', async () => {
    reads.length = 0;
    expect(await run(['runners', 'prune', '--stale', '--older-than', '30d', '--dry-run'])).toEqual({
      exitCode: 0,
      stdout:
        'id\trunner_type\tstatus\tcontacted_at\tdescription\n' +
        `${B}\tinstance_type\tstale\t2020-01-01T00:00:00Z\tr1\n` +
        `${B2}\tinstance_type\tstale\t2020-01-02T00:00:00Z\tr2\n`,
      stderr: 'dry run: 2 stale runners past the age given would be deleted\n',
    });
    expect(reads.filter((r) => r.startsWith('GET /runners/9')).sort()).toEqual([`GET /runners/${B}`, `GET /runners/${B2}`]);
  });
});
