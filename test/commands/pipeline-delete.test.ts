import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, isolatedEnv, spawnSvc, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 6 });

interface Listed {
  id: number;
  ref: string;
  status: string;
  updated_at: string;
  web_url: string;
}

async function pipelines(project: string): Promise<Listed[]> {
  const result = await suite.run(['pipeline', 'list', project, '--all', '-o', 'json', '--fields', 'id,ref,status,updated_at,web_url']);
  expect(result.exitCode).toBe(0);
  return (JSON.parse(result.stdout) as Listed[]).sort((a, b) => a.id - b.id);
}

const planLine = (p: Listed) => `  ${p.id}  ${p.ref}  ${p.status}  ${p.updated_at}\n`;

describe('pipeline delete PROJECT ID', () => {
  it('needs --yes without a terminal (exit 2, nothing sent), deletes with it, and names the owner role on 403', async () => {
    const unconfirmed = await suite.run(['pipeline', 'delete', '2', '4']);
    expect(unconfirmed).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'svc: Delete pipeline 4 of project 2 with its jobs and logs: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    });
    expect(suite.requests()).toEqual([]);

    const refused = await suite.run(['pipeline', 'delete', '2', '4', '--yes'], { token: suite.sandbox.tokens.user });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: DELETE /projects/2/pipelines/4 failed: 403 Forbidden (this needs the owner role or administrator access)\n',
    });

    const deleted = await suite.run(['pipeline', 'delete', '2', '4', '-y']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted pipeline 4\n' });
    expect(onlyRequest(suite, 'DELETE', /pipelines/).rawPath).toBe('/api/v4/projects/2/pipelines/4');
    expect((await pipelines('2')).map((p) => p.id)).toEqual([5, 6]);
  });

  it('refuses an ID with --older-than, neither of them, cleanup flags without --older-than, and a bad age (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['2', '5', '--older-than', '30d'], 'svc: give a pipeline ID or --older-than, not both\n'],
      [['2'], 'svc: give a pipeline ID, or --older-than AGE to delete every pipeline not updated for that long\n'],
      [['2', '5', '--dry-run'], 'svc: --dry-run goes with --older-than\n'],
      [['2', '5', '--status', 'failed'], 'svc: --status goes with --older-than\n'],
      [['2', '0'], "svc: invalid pipeline id '0': expected a positive whole number\n"],
      [
        ['2', '--older-than', '30'],
        "svc: error: option '--older-than <age>' argument '30' is invalid. --older-than must be a whole number of weeks, days, hours or minutes above 0, such as 30d, 12w, 12h or 90m\n",
      ],
      [
        ['2', '--older-than', '0d'],
        "svc: error: option '--older-than <age>' argument '0d' is invalid. --older-than must be a whole number of weeks, days, hours or minutes above 0, such as 30d, 12w, 12h or 90m\n",
      ],
      [
        ['2', '--older-than', '999999999999999999999d'],
        "svc: error: option '--older-than <age>' argument '999999999999999999999d' is invalid. --older-than must be at most 36500d (100 years)\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(['pipeline', 'delete', ...args, '--yes'])).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
    const century = await suite.run(['pipeline', 'delete', '2', '--older-than', '5214w', '--dry-run']);
    expect([century.exitCode, century.stdout]).toEqual([0, '']);
  });
});

describe('pipeline delete PROJECT --older-than AGE', () => {
  it('plans across every page with --dry-run and sends no DELETE', async () => {
    const fresh = await suite.run(['pipeline', 'create', '1', '--ref', 'develop', '-o', 'json', '--fields', 'id']);
    expect(fresh.exitCode).toBe(0);
    const old = (await pipelines('1')).filter((p) => p.ref === 'main');
    expect(old.map((p) => p.id)).toEqual([1, 2, 3]);
    const before = suite.sandbox.stats().requests.byMethod.DELETE ?? 0;

    const dry = await suite.run(['pipeline', 'delete', '1', '--older-than', '30d', '--dry-run', '--per-page', '2', '-o', 'ndjson']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toBe(
      `found 3 pipelines of project 1 not updated for 30d:\n${old.map(planLine).join('')}would delete 3 pipelines; nothing was deleted (--dry-run)\n`,
    );
    expect(
      dry.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(old.map((p) => ({ ...p, outcome: 'planned', error: null })));
    const listings = suite.requests();
    expect(listings.map((r) => [r.method, r.rawPath, new URLSearchParams(r.rawQuery).get('page') ?? '1'])).toEqual([
      ['GET', '/api/v4/projects/1/pipelines', '1'],
      ['GET', '/api/v4/projects/1/pipelines', '2'],
    ]);
    const query = new URLSearchParams(listings[0]!.rawQuery);
    const cutoff = Date.parse(query.get('updated_before')!);
    expect(Math.abs(Date.now() - 30 * 86_400_000 - cutoff)).toBeLessThan(60_000);
    expect([query.get('per_page'), query.get('order_by'), query.get('sort')]).toEqual(['2', 'id', 'asc']);
    expect(suite.sandbox.stats().requests.byMethod.DELETE ?? 0).toBe(before);
  });

  it('deletes every match with --yes, one line per deletion and a summary, outcomes on stdout with -o; newer ones stay', async () => {
    const kept = (await pipelines('1')).filter((p) => p.ref !== 'main');
    const old = (await pipelines('1')).filter((p) => p.ref === 'main');
    const result = await suite.run(['pipeline', 'delete', '1', '--older-than', '30d', '--yes', '--max-in-flight', '1', '-o', 'ndjson']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `found 3 pipelines of project 1 not updated for 30d:\n${old.map(planLine).join('')}` +
        'deleted pipeline 1\ndeleted pipeline 2\ndeleted pipeline 3\ndeleted 3 of 3 pipelines of project 1\n',
    );
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(old.map((p) => ({ ...p, outcome: 'deleted', error: null })));
    expect(
      suite
        .requests()
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.rawPath),
    ).toEqual(['/api/v4/projects/1/pipelines/1', '/api/v4/projects/1/pipelines/2', '/api/v4/projects/1/pipelines/3']);
    expect((await pipelines('1')).map((p) => p.id)).toEqual(kept.map((p) => p.id));

    const again = await suite.run(['pipeline', 'delete', '1', '--older-than', '30d', '--yes']);
    expect(again).toEqual({ exitCode: 0, stdout: '', stderr: 'no pipelines of project 1 not updated for 30d: nothing to delete\n' });
  });

  it('takes only the pipelines older than the age among pipelines of several ages', async () => {
    const [first, second, third] = await pipelines('3');
    // A cut-off half-way between the second and the third pipeline (an hour apart), in minutes from now.
    const cutoff = (Date.parse(second!.updated_at) + Date.parse(third!.updated_at)) / 2;
    const minutes = Math.round((Date.now() - cutoff) / 60_000);
    const result = await suite.run(['pipeline', 'delete', '3', '--older-than', `${minutes}m`, '--yes']);
    expect(result.exitCode).toBe(0);
    const age = minutes % 1440 === 0 ? `${minutes / 1440}d` : minutes % 60 === 0 ? `${minutes / 60}h` : `${minutes}m`;
    expect(result.stderr).toBe(
      `found 2 pipelines of project 3 not updated for ${age}:\n${planLine(first!)}${planLine(second!)}` +
        `deleted pipeline ${first!.id}\ndeleted pipeline ${second!.id}\ndeleted 2 of 2 pipelines of project 3\n`,
    );
    expect(await pipelines('3')).toEqual([third]);
  });

  it('sends --status and --ref to the listing and deletes only what matches', async () => {
    const all = await pipelines('6');
    const failed = all.filter((p) => p.status === 'failed');
    expect(failed.map((p) => p.id)).toEqual([17]);
    const none = await suite.run(['pipeline', 'delete', '6', '--older-than', '30d', '--ref', 'develop', '--status', 'failed', '--yes']);
    expect(none).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'no pipelines of project 6 not updated for 30d, status failed, ref develop: nothing to delete\n',
    });
    const query = new URLSearchParams(suite.requests()[0]!.rawQuery);
    expect([query.get('status'), query.get('ref')]).toEqual(['failed', 'develop']);

    const result = await suite.run(['pipeline', 'delete', '6', '--older-than', '12h', '--status', 'failed', '--ref', 'main', '--yes']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: '',
      stderr:
        `found 1 pipeline of project 6 not updated for 12h, status failed, ref main:\n${planLine(failed[0]!)}` +
        'deleted pipeline 17\ndeleted 1 of 1 pipeline of project 6\n',
    });
    expect((await pipelines('6')).map((p) => p.id)).toEqual([16, 18]);
  });

  it('without a terminal shows the plan, then needs --yes (exit 2), having only read', async () => {
    const old = await pipelines('4');
    const result = await suite.run(['pipeline', 'delete', '4', '--older-than', '90d']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        `found ${old.length} pipelines of project 4 not updated for 90d:\n${old.map(planLine).join('')}` +
        `svc: Delete these ${old.length} pipelines: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(await pipelines('4')).toEqual(old);
  });

  it('shows the plan on a terminal and asks once; only yes deletes', async () => {
    const env = isolatedEnv({ env: { ...sandboxEnv(suite.sandbox), TERM: 'dumb' } });
    const old = await pipelines('5');
    const plan = `found 3 pipelines of project 5 not updated for 30d:\r\n${old.map(planLine).join('').replace(/\n/g, '\r\n')}`;
    const declined = spawnPty(['node', BIN, 'pipeline', 'delete', '5', '--older-than', '30d'], { env });
    await declined.waitFor('? [y/N] ');
    declined.write('n\r');
    const no = await declined.exit();
    expect([no.exitCode, no.output]).toEqual([
      1,
      `${plan}Delete these 3 pipelines? [y/N] n\r\nsvc: Delete these 3 pipelines: not confirmed, nothing was changed\r\n`,
    ]);
    expect(await pipelines('5')).toEqual(old);

    const accepted = spawnPty(['node', BIN, 'pipeline', 'delete', '5', '--older-than', '30d', '--max-in-flight', '1'], { env });
    await accepted.waitFor('? [y/N] ');
    accepted.write('y\r');
    const yes = await accepted.exit();
    expect([yes.exitCode, yes.output]).toEqual([
      0,
      `${plan}Delete these 3 pipelines? [y/N] y\r\n` +
        'deleted pipeline 13\r\ndeleted pipeline 14\r\ndeleted pipeline 15\r\ndeleted 3 of 3 pipelines of project 5\r\n',
    ]);
    expect(await pipelines('5')).toEqual([]);
  });
});

describe('pipeline delete --older-than when some deletions fail', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // With this seed the fourth request draws a 500: the DELETE of pipeline 2 (after the listing and pipeline 1).
    sandbox = await startTestSandbox({ projects: 6, faults: '500=0.3', faultSeed: 8 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('deletes the others, explains each failure and exits 8 with the exact summary', async () => {
    const args = ['--retries', '0', 'pipeline', 'delete', '1', '--older-than', '30d', '--yes', '--max-in-flight', '1', '-o', 'ndjson'];
    const result = await svc(args, { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(8);
    const lines = result.stderr.split('\n');
    expect(lines.slice(4)).toEqual([
      'deleted pipeline 1',
      'warning: pipeline 2 was not deleted: DELETE /projects/1/pipelines/2 failed: 500 Internal Server Error',
      'deleted pipeline 3',
      'svc: deleted 2 of 3 pipelines of project 1; 1 failed',
      '',
    ]);
    const outcomes = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; outcome: string; error: string | null });
    expect(outcomes.map(({ id, outcome, error }) => ({ id, outcome, error }))).toEqual([
      { id: 1, outcome: 'deleted', error: null },
      { id: 2, outcome: 'failed', error: 'DELETE /projects/1/pipelines/2 failed: 500 Internal Server Error' },
      { id: 3, outcome: 'deleted', error: null },
    ]);
    expect(sandbox.stats().requests.byMethod.DELETE).toBe(3);
  });
});

describe('pipeline delete --older-than interrupted', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // Slow answers, so that the interrupt lands while a deletion is under way.
    sandbox = await startTestSandbox({ projects: 2, latencyMs: 400 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('starts no new deletion after SIGINT, says which one was cut off, and exits 130', async () => {
    const args = ['pipeline', 'delete', '1', '--older-than', '30d', '--yes', '--max-in-flight', '1'];
    const child = spawnSvc(args, { env: sandboxEnv(sandbox) });
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('deleted pipeline 1\n')) resolve();
      }),
    );
    child.kill('SIGINT');
    const end = await child;
    expect(end.exitCode).toBe(130);
    expect(String(end.stderr).split('\n').slice(-4)).toEqual([
      'deleted pipeline 1',
      'warning: pipeline 2: interrupted before the service answered: it may be deleted or not',
      'svc: interrupted: deleted 1 of 3 pipelines of project 1; 0 failed, 1 cut off (deleted or not), 1 not started',
      '',
    ]);
    const deletes = sandbox
      .requests()
      .filter((r) => r.method === 'DELETE')
      .map((r) => r.rawPath);
    expect(deletes).not.toContain('/api/v4/projects/1/pipelines/3');
  });
});
