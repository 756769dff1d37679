import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../drills/scripted-server.js';
import { BIN, isolatedEnv, spawnSvc, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

// Fixed runners (src/sandbox/resources/runner-store.ts): 1 online, 2 offline, 3 stale, 4 never contacted,
// 5 paused (instance); 6 acme, 7 globex (group); 8 project 2, 9 projects 1 and 2, 10 project 3 (project).
const suite = useSandbox({ projects: 10 });
const user = () => ({ token: suite.sandbox.tokens.user });

describe('runners list', () => {
  it("lists the caller's own group and project runners", async () => {
    const result = await suite.run(['runners', 'list', '-o', 'ndjson', '--fields', 'id,status'], user());
    expect(result).toEqual({
      exitCode: 0,
      stdout: [
        '{"id":6,"status":"online"}',
        '{"id":8,"status":"online"}',
        '{"id":9,"status":"stale"}',
        '{"id":10,"status":"stale"}',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/runners$/).rawQuery).toBe('per_page=100');
  });

  it('lists every runner with --instance, filtered by type, status, paused and tags', async () => {
    const stale = await suite.run([
      'runners',
      'list',
      '--instance',
      '--status',
      'stale',
      '--type',
      'project_type',
      '-o',
      'ndjson',
      '--fields',
      'id',
    ]);
    expect([stale.exitCode, stale.stdout]).toEqual([0, '{"id":9}\n{"id":10}\n']);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/runners\/all$/).rawQuery).toBe('type=project_type&status=stale&per_page=100');
    const tagged = await suite.run([
      'runners',
      'list',
      '--instance',
      '--tag',
      'docker',
      '--tag',
      'linux',
      '-o',
      'ndjson',
      '--fields',
      'id',
    ]);
    expect(tagged.stdout).toBe('{"id":1}\n{"id":8}\n');
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/runners\/all$/).rawQuery).toBe('tag_list=docker%2Clinux&per_page=100');
    const paused = await suite.run(['runners', 'list', '--instance', '--paused', '-o', 'ndjson', '--fields', 'id,status']);
    expect(paused.stdout).toBe('{"id":5,"status":"paused"}\n');
  });

  it('--instance is the first page of 100 like any listing; with --all, every page', async () => {
    const some = await suite.run(['runners', 'list', '--instance', '--limit', '4', '--per-page', '2', '-o', 'ndjson', '--fields', 'id']);
    expect([some.exitCode, some.stdout, some.stderr]).toEqual([0, '{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}\n', '']);
    expect(suite.requests().map((r) => r.rawPath)).toEqual(['/api/v4/runners/all', '/api/v4/runners/all']);
    const every = await suite.run(['runners', 'list', '--instance', '--all', '--per-page', '4', '-o', 'ndjson', '--fields', 'id']);
    expect([every.exitCode, every.stderr]).toEqual([0, '']);
    expect(every.stdout).toBe([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => `{"id":${id}}\n`).join(''));
    expect(suite.requests().map((r) => r.rawPath)).toEqual(Array(3).fill('/api/v4/runners/all'));
  });

  it('--all alone still lists every runner of the instance, every page, with a note pointing to --instance', async () => {
    const result = await suite.run(['runners', 'list', '--all', '--per-page', '4', '-o', 'ndjson', '--fields', 'id']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => `{"id":${id}}\n`).join(''),
      stderr: 'note: --all alone still lists every runner of the instance; say --instance for that (--all: every page)\n',
    });
    expect(suite.requests().map((r) => r.rawPath)).toEqual(Array(3).fill('/api/v4/runners/all'));
  });

  it('names administrator access when the instance list is refused (exit 4), in one line', async () => {
    for (const scope of ['--instance', '--all']) {
      const result = await suite.run(['runners', 'list', scope], user());
      expect(result).toEqual({
        exitCode: 4,
        stdout: '',
        stderr:
          'svc: GET /runners/all failed: 403 Forbidden (--instance lists every runner of the instance: this needs administrator access)\n',
      });
    }
  });

  it('refuses a status the service does not filter on (exit 2)', async () => {
    const result = await suite.run(['runners', 'list', '--status', 'paused']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "svc: error: option '--status <status>' argument 'paused' is invalid. Allowed choices are online, offline, stale, never_contacted.\n",
    );
  });
});

describe('runners list --project and --group', () => {
  it('lists the runners a project or a group can use', async () => {
    const project = await suite.run(
      ['runners', 'list', '--project', '2', '--type', 'group_type', '-o', 'ndjson', '--fields', 'id'],
      user(),
    );
    expect([project.exitCode, project.stdout]).toEqual([0, '{"id":6}\n']);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/projects\/2\/runners$/).rawQuery).toBe('type=group_type&per_page=100');
    const group = await suite.run(
      ['runners', 'list', '--group', 'acme/platform', '--type', 'group_type', '-o', 'ndjson', '--fields', 'id'],
      user(),
    );
    expect([group.exitCode, group.stdout]).toEqual([0, '{"id":6}\n']);
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/groups\/acme%2Fplatform\/runners$/).rawQuery).toBe('type=group_type&per_page=100');
  });

  it('takes one of them and --instance at a time (exit 2)', async () => {
    for (const scope of [
      ['--project', '2', '--group', '1'],
      ['--instance', '--project', '2'],
      ['--instance', '--group', '1'],
    ]) {
      const result = await suite.run(['runners', 'list', ...scope]);
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give one of --instance, --project or --group\n' });
    }
    expect(suite.requests()).toEqual([]);
  });

  it('--all with --project or --group means every page of that list, with no note', async () => {
    const onePage = await suite.run(['runners', 'list', '--project', '2', '-o', 'ndjson', '--fields', 'id'], user());
    suite.sandbox.clearRequests();
    const result = await suite.run(
      ['runners', 'list', '--project', '2', '--all', '--per-page', '1', '-o', 'ndjson', '--fields', 'id'],
      user(),
    );
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, onePage.stdout, '']);
    const records = onePage.stdout.split('\n').length - 1;
    expect(records).toBeGreaterThan(1);
    expect(suite.requests().map((r) => r.rawPath)).toEqual(Array(records).fill('/api/v4/projects/2/runners'));
  });
});

describe('runners get', () => {
  it('shows one runner with its last contact', async () => {
    const result = await suite.run(['runners', 'get', '4', '-o', 'json', '--fields', 'id,status,contacted_at,tag_list']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: 4, status: 'never_contacted', contacted_at: null, tag_list: [] }, null, 2)}\n`,
      stderr: '',
    });
  });

  it("refuses another owner's runner (exit 4) and an unknown one (exit 5)", async () => {
    const denied = await suite.run(['runners', 'get', '7'], user());
    expect(denied).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /runners/7 failed: 403 Forbidden - No access granted (this needs the maintainer role or administrator access)\n',
    });
    const unknown = await suite.run(['runners', 'get', '404']);
    expect(unknown).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /runners/404 failed: 404 Runner Not Found\n' });
  });
});

describe('runners pause and resume', () => {
  it('pauses and resumes with PUT paused, saying so and printing the runner', async () => {
    const paused = await suite.run(['runners', 'pause', '8', '-o', 'json', '--fields', 'id,paused,status'], user());
    expect(paused).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ id: 8, paused: true, status: 'paused' }, null, 2)}\n`,
      stderr: 'paused runner 8\n',
    });
    expect(onlyRequest(suite, 'PUT', /^\/api\/v4\/runners\/8$/).bodyJson).toEqual({ paused: true });
    const resumed = await suite.run(['-q', 'runners', 'resume', '8'], user());
    expect(resumed).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(onlyRequest(suite, 'PUT', /^\/api\/v4\/runners\/8$/).bodyJson).toEqual({ paused: false });
  });

  it('names the role when an instance runner is refused to a user (exit 4)', async () => {
    const result = await suite.run(['runners', 'pause', '1'], user());
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: PUT /runners/1 failed: 403 Forbidden - No access granted (this needs the maintainer role or administrator access)\n',
    });
  });
});

describe('runners jobs', () => {
  it("lists a runner's jobs, filtered by status", async () => {
    const result = await suite.run(['runners', 'jobs', '8', '--status', 'failed', '-o', 'ndjson', '--fields', 'id,status,name']);
    expect(result).toEqual({ exitCode: 0, stdout: '{"id":10,"status":"failed","name":"test"}\n', stderr: '' });
    expect(onlyRequest(suite, 'GET', /^\/api\/v4\/runners\/8\/jobs$/).rawQuery).toBe('status=failed&per_page=100');
  });
});

describe('runners delete', () => {
  it('requires --yes when stdin is not a terminal (exit 2), then deletes', async () => {
    const refused = await suite.run(['runners', 'delete', '2']);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: Delete runner 2: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    });
    expect(suite.requests()).toEqual([]);
    const done = await suite.run(['runners', 'delete', '2', '--yes']);
    expect(done).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted runner 2\n' });
    expect((await suite.run(['runners', 'get', '2'])).exitCode).toBe(5);
  });

  it('reports the service refusing a runner of several projects to its maintainer (exit 4)', async () => {
    const result = await suite.run(['runners', 'delete', '9', '--yes'], user());
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'svc: DELETE /runners/9 failed: 403 Forbidden - Runner associated with more than one project (this needs the maintainer role or administrator access)\n',
    );
  });
});

describe('runners prune', () => {
  const many = useSandbox({ projects: 10, runners: 60 });

  const api = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${many.sandbox.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': many.sandbox.tokens.admin } })).json()) as T;

  it('prints the plan of every stale runner and deletes nothing with --dry-run', async () => {
    const stale = await api<Array<{ id: number }>>('/runners/all?status=stale&per_page=100');
    const result = await many.run(['runners', 'prune', '--stale', '--dry-run', '-o', 'ndjson', '--fields', 'id,status']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: stale.map(({ id }) => `{"id":${id},"status":"stale"}\n`).join(''),
      stderr: `dry run: ${stale.length} stale runners would be deleted\n`,
    });
    expect(many.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('keeps only runners past --older-than, by their last contact (never contacted ones are kept)', async () => {
    const stale = await api<Array<{ id: number }>>('/runners/all?status=stale&per_page=100');
    const details = await Promise.all(stale.map(({ id }) => api<{ id: number; contacted_at: string | null }>(`/runners/${id}`)));
    const now = Date.now();
    const old = details.filter((r) => r.contacted_at !== null && now - Date.parse(r.contacted_at) > 90 * 86_400_000);
    const result = await many.run([
      'runners',
      'prune',
      '--stale',
      '--older-than',
      '90d',
      '--dry-run',
      '-o',
      'ndjson',
      '--fields',
      'id,contacted_at',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: old.map(({ id, contacted_at }) => `${JSON.stringify({ id, contacted_at })}\n`).join(''),
      stderr: `dry run: ${old.length} stale runners past the age given would be deleted\n`,
    });
    expect(many.requests().filter((r) => /^\/api\/v4\/runners\/\d+$/.test(r.rawPath)).length).toBe(stale.length);
  });

  it('deletes every planned runner after --yes, with a summary', async () => {
    const plan = await many.run(['runners', 'prune', '--stale', '--dry-run', '-o', 'ndjson', '--fields', 'id']);
    const count = plan.stdout.trim().split('\n').length;
    const result = await many.run(['runners', 'prune', '--stale', '--yes', '--max-in-flight', '4', '-o', 'ndjson', '--fields', 'id']);
    expect(result).toEqual({ exitCode: 0, stdout: plan.stdout, stderr: `deleted ${count} of ${count} runners\n` });
    expect(many.requests().filter((r) => r.method === 'DELETE').length).toBe(count);
    const after = await many.run(['runners', 'prune', '--stale', '--dry-run']);
    expect(after).toEqual({ exitCode: 0, stdout: '', stderr: 'no stale runner matches: nothing to delete\n' });
  });

  it('needs --stale, and is refused to a user who is not an administrator (exit 4)', async () => {
    expect(await many.run(['runners', 'prune', '--dry-run'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: say which runners to prune: --stale (the only selection there is)\n',
    });
    expect(await many.run(['runners', 'prune', '--stale', '--dry-run'], { token: many.sandbox.tokens.user })).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /runners/all failed: 403 Forbidden (pruning reads every runner of the instance: this needs administrator access)\n',
    });
  });
});

describe('runners prune against a service that refuses one deletion', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  let url: string;
  let inFlight = 0;
  let maxInFlight = 0;
  const deleted: number[] = [];
  beforeAll(async () => {
    server = await startScriptedServer();
    const runners = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      description: `r${i + 1}`,
      runner_type: 'instance_type',
      status: 'stale',
      paused: false,
    }));
    url = server.add('prune', (req, res) => {
      if (req.method === 'GET' && req.url?.includes('/runners/all')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(runners));
        return;
      }
      const id = Number(/\/runners\/(\d+)$/.exec(req.url ?? '')?.[1]);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        if (id === 5) {
          res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"403 Forbidden"}');
          return;
        }
        deleted.push(id);
        res.writeHead(204).end();
      }, 20);
    });
  });
  afterAll(() => server.close());

  it('deletes the others at most --max-in-flight at once, names the failure and exits 8', async () => {
    const result = await svc(['runners', 'prune', '--stale', '--yes', '--max-in-flight', '3', '-o', 'ndjson', '--fields', 'id'], {
      env: { SVC_URL: url, SVC_TOKEN: 'scripted-admin-token' },
    });
    expect(result).toEqual({
      exitCode: 8,
      stdout: Array.from({ length: 12 }, (_, i) => `{"id":${i + 1}}\n`).join(''),
      stderr: 'runner 5 not deleted: DELETE /runners/5 failed: 403 Forbidden\nsvc: deleted 11 of 12 runners; 1 failed\n',
    });
    expect(deleted.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]);
    expect(maxInFlight).toBe(3);
  });
});

describe('runners prune on a terminal', () => {
  it('asks before deleting, and deletes nothing unless the answer is yes', async () => {
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    suite.sandbox.clearRequests();
    const session = spawnPty(['node', BIN, 'runners', 'prune', '--stale', '-o', 'ndjson', '--fields', 'id'], { env });
    await session.waitFor('? [y/N] ');
    session.write('n\r');
    const exit = await session.exit();
    expect(exit.exitCode).toBe(1);
    expect(exit.output).toBe(
      '{"id":3}\r\n{"id":7}\r\n{"id":9}\r\n{"id":10}\r\nDelete 4 stale runners? [y/N] n\r\nsvc: Delete 4 stale runners: not confirmed, nothing was changed\r\n',
    );
    expect(suite.sandbox.requests().filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});

describe('runners prune interrupted', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  let url: string;
  let received = 0;
  beforeAll(async () => {
    server = await startScriptedServer();
    const runners = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      description: `r${i + 1}`,
      runner_type: 'instance_type',
      status: 'stale',
      paused: false,
    }));
    url = server.add('slow', (req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(runners));
        return;
      }
      received++;
      setTimeout(() => res.writeHead(204).end(), 400);
    });
  });
  afterAll(() => server.close());

  it('starts no new deletion after Ctrl-C, and says how many were not attempted (exit 130)', async () => {
    const child = spawnSvc(['runners', 'prune', '--stale', '--yes', '--max-in-flight', '2', '-o', 'ndjson', '--fields', 'id'], {
      env: { SVC_URL: url, SVC_TOKEN: 'scripted-admin-token' },
    });
    for (let i = 0; i < 400 && received < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGINT');
    const result = await child;
    expect([result.exitCode, String(result.stderr)]).toEqual([
      130,
      'svc: interrupted: deleted 0 of 12 runners; 2 cut off in flight, maybe deleted (1, 2); 10 not attempted\n',
    ]);
    expect(received).toBe(2);
  });
});
