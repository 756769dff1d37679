import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { startScriptedServer } from './scripted-server.js';

// Plans that act on ids the server listed: an id past 2^53 is parsed as its source text (json.ts),
// which plain subtraction and Set identity do not handle. Each id must reach its own request exactly.
const B = '9007199254740993';
const B2 = '9007199254740995';
const ROUTES: Record<string, string> = {
  '/user': '{"id":1,"username":"root","is_admin":true}',
  // The first user is the one a username search finds; the audit reads them all.
  '/users': `[{"id":7,"username":"leaver"},{"id":${B2},"username":"project_bot","bot":true},{"id":8,"username":"ann","bot":false}]`,
  // The service lists a project bot's token among the personal ones too; this server ignores the owner filter.
  '/personal_access_tokens': `[${token(B, 'bot', B2)},${token(B2, 'imp', '8')}]`,
  '/users/7': '{"id":7,"username":"leaver","state":"active"}',
  '/users/7/memberships': `[{"source_id":${B2},"source_name":"big2","source_type":"Project"},{"source_id":${B},"source_name":"own","source_type":"Project"},{"source_id":5,"source_name":"g","source_type":"Namespace"}]`,
  '/users/7/projects': `[{"id":${B}}]`,
  '/groups/5/projects': `[{"id":${B2}},{"id":3}]`,
  [`/projects/${B}/pipeline_schedules`]: `[{"id":${B2},"description":"nightly","owner":{"id":7}}]`,
  [`/projects/${B2}/pipeline_schedules`]: '[]',
  '/projects/3/pipeline_schedules': '[]',
  '/runners/all': `[{"id":${B2},"runner_type":"instance_type","status":"stale","description":"r2"},{"id":${B},"runner_type":"instance_type","status":"stale","description":"r1"}]`,
  [`/runners/${B}`]: `{"id":${B},"contacted_at":"2020-01-01T00:00:00Z"}`,
  [`/runners/${B2}`]: `{"id":${B2},"contacted_at":"2020-01-02T00:00:00Z"}`,
  '/projects': `[{"id":${B},"path_with_namespace":"acme/big"}]`,
  [`/projects/${B}/access_tokens`]: `[${token(B, 'bot', B2)}]`,
  [`/projects/${B}/deploy_tokens`]: '[]',
  '/groups': '[]',
  '/projects/1/environments': `[{"id":${B},"name":"review/big","state":"available","tier":"development","updated_at":"2020-01-01T00:00:00Z"}]`,
  '/projects/1/deployments': `[{"id":1,"environment":{"id":${B}}}]`,
  '/projects/1/protected_environments': '[]',
  '/users/8/impersonation_tokens': `[${token(B2, 'imp', '8')}]`,
  '/application/settings': '{"repository_storages_weighted":{"default":100,"storage2":0}}',
  '/project_repository_storage_moves': `[{"id":${B},"state":"started","project":{"id":${B2},"path_with_namespace":"acme/big2"},"source_storage_name":"default","destination_storage_name":"storage2","created_at":"2026-01-01T00:00:00Z"}]`,
  // Two versions created at the same time: their ids decide which is the newer.
  '/projects/1/packages': `[${pkg(B2)},${pkg(B)},${pkg('5')}]`,
};

function pkg(id: string): string {
  return `{"id":${id},"name":"lib","version":"v${id.slice(-2)}","package_type":"npm","created_at":"2020-01-01T00:00:00Z"}`;
}

function token(id: string, name: string, user: string): string {
  return `{"id":${id},"name":"${name}","user_id":${user},"scopes":["api"],"active":true,"revoked":false,"expires_at":"2099-01-01","last_used_at":null,"created_at":"2026-01-01T00:00:00Z","access_level":40}`;
}

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
        `revoke\ttoken bot (${B})\n` +
        `revoke\ttoken imp (${B2})\n` +
        `take over\tschedule ${B2} "nightly" of project ${B}\n` +
        `remove from\tproject big2 (${B2})\n` +
        'remove from\tgroup g (5)\n' +
        'block\tuser leaver (7)\n',
      stderr:
        'dry run: offboarding leaver (7) takes 2 token(s) to revoke, 1 schedule(s) to take over, 2 membership(s) to remove, then the block; nothing was changed\n',
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

  it("tokens audit tells a bot's token and an impersonation token apart by their ids", async () => {
    const result = await run(['tokens', 'audit']);
    expect([result.exitCode, result.stdout.split('\n').map((line) => line.slice(0, line.indexOf(',"scopes"')))]).toEqual([
      0,
      [
        `{"kind":"project","id":${B},"name":"bot","owner":"acme/big","owner_id":${B}`,
        `{"kind":"impersonation","id":${B2},"name":"imp","owner":"ann","owner_id":8`,
        '',
      ],
    ]);
  });

  it('packages cleanup orders versions created together by their ids, past 2^53 as typed', async () => {
    const result = await run(['packages', 'cleanup', '1', '--keep-n', '1', '--dry-run']);
    expect([result.exitCode, result.stdout.split('\n').map((line) => line.split('\t')[0])]).toEqual([0, ['id', '5', B, '']]);
  });

  it('storage-move verify stops at an id it could not follow; list prints a move with such ids exactly', async () => {
    expect(await run(['storage-move', 'verify', '--from', 'default', '--kind', 'projects'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `svc: listing projects on default holds id ${B}, past 9007199254740991: svc cannot follow it exactly\n`,
    });
    const listed = await run(['storage-move', 'list', '--kind', 'projects', '-o', 'ndjson', '--fields', 'id,project.id']);
    expect([listed.exitCode, listed.stdout]).toEqual([0, `{"id":${B},"project":{"id":${B2}}}\n`]);
  });

  it('environments stop-stale leaves out an environment deployed to since, matched by its id', async () => {
    const result = await run(['environments', 'stop-stale', '1', '--older-than', '30d', '--dry-run']);
    expect([result.exitCode, result.stdout]).toEqual([0, '']);
    expect(result.stderr).toMatch(/^no available environments of project 1 not updated or deployed to since \S+: nothing to stop\n$/);
  });
});
