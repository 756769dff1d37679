import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { parseWeights } from '../../src/commands/storage-move/weights.js';
import { cleanupTempDirs, svc } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';
import { env, FAST, idsOn } from './helpers.js';

let sb: Sandbox;
let free: Sandbox;
beforeAll(async () => {
  [sb, free] = await Promise.all([
    startTestSandbox({ projects: 60, moveMs: 5 }),
    startTestSandbox({ projects: 60, moveMs: 5, tier: 'free' }),
  ]);
});
afterAll(async () => {
  await Promise.all([sb.close(), free.close()]);
  cleanupTempDirs();
});

describe('bad input', () => {
  it('refuses --from equal to --to before sending anything', async () => {
    sb.clearRequests();
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'default'], { env: env(sb) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--from and --to are both 'default'.*--force/);
    expect(sb.requests()).toHaveLength(0);
  });

  it('names an unknown storage and exits 6', async () => {
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'nowhere'], { env: env(sb) });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/unknown storage 'nowhere' \(this instance has: default, storage2\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('explains that a non-administrator cannot move storage (exit 4)', async () => {
    const r = await svc(['storage-move', 'wait', '--from', 'default', '--to', 'storage2'], { env: env(sb, sb.tokens.user) });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/storage moves need an administrator's token: .*403/);
  });

  it('rejects bad --interval, --move-retries, --wait-timeout, --kind and --max-in-flight values with exit 2', async () => {
    sb.clearRequests();
    const base = ['storage-move', 'wait', '--from', 'default', '--to', 'storage2'];
    const cases: Array<[string[], string]> = [
      [['--interval', '0'], '--interval must be at least 0.05'],
      [['--interval', 'soon'], '--interval must be a number of seconds'],
      [['--interval', '86401'], '--interval must be at most 86,400 seconds'],
      [['--move-retries', '-1'], '--move-retries must be between 0 and 20'],
      [['--move-retries', '99'], '--move-retries must be between 0 and 20'],
      [['--wait-timeout', '0.5'], '--wait-timeout must be at least 1'],
      [['--wait-timeout', '2592001'], '--wait-timeout must be at most 2,592,000 seconds'],
      [['--kind', 'wikis'], 'expected projects, snippets, groups or all'],
      [['--max-in-flight', '0'], '--max-in-flight must be at least 1'],
    ];
    for (const [extra, line] of cases) {
      const r = await svc([...base, ...extra], { env: env(sb) });
      expect(r.exitCode, extra.join(' ')).toBe(2);
      // The wording around the reason is commander's; the reason is ours.
      expect(r.stderr.trim().split('\n'), extra.join(' ')).toHaveLength(1);
      expect(r.stderr.startsWith('svc: '), r.stderr).toBe(true);
      expect(r.stderr.trimEnd().endsWith(` is invalid. ${line}`), r.stderr).toBe(true);
    }
    expect(sb.requests()).toHaveLength(0);
  });

  it('takes the same --kind words in every verb, with one message listing them', async () => {
    sb.clearRequests();
    const verbs = [
      ['schedule', '--from', 'default', '--to', 'storage2'],
      ['wait', '--from', 'default', '--to', 'storage2'],
      ['verify', '--from', 'default'],
      ['list'],
      ['get', '1'],
    ];
    for (const verb of verbs) {
      const bad = await svc(['storage-move', ...verb, '--kind', 'bogus'], { env: env(sb) });
      expect(bad.exitCode, verb[0]).toBe(2);
      expect(bad.stderr.trim(), verb[0]).toMatch(
        verb[0] === 'get'
          ? /^svc: .*'bogus'.*expected projects, snippets or groups$/
          : /^svc: .*'bogus'.*expected projects, snippets, groups or all$/,
      );
      const help = await svc(['storage-move', ...verb, '--help'], { env: env(sb) });
      // The choices shown are exactly the accepted words: `get` takes one kind, so no `all` (#9 item 8).
      const choices =
        verb[0] === 'get'
          ? '"projects", "project", "snippets", "snippet", "groups", "group"'
          : '"projects", "project", "snippets", "snippet", "groups", "group", "all"';
      expect(help.stdout.replace(/\s+/g, ' '), verb[0]).toContain(
        `--kind <kind> kind of repository ${verb[0] === 'schedule' ? '(default: all) ' : ''}(choices: ${choices}`,
      );
    }
    expect(sb.requests()).toHaveLength(0);
    const list = await svc(['storage-move', 'list', '--kind', 'all', '--all', '-o', 'json'], { env: env(sb) });
    expect(list.exitCode, list.stderr).toBe(0);
    const single = await svc(['storage-move', 'list', '--kind', 'snippet', '-o', 'json'], { env: env(sb) });
    expect(single.exitCode, single.stderr).toBe(0);
    const get = await svc(['storage-move', 'get', '1', '--kind', 'all'], { env: env(sb) });
    expect(get.exitCode).toBe(2);
    expect(get.stderr.trim()).toBe("svc: error: option '--kind <kind>' argument 'all' is invalid. expected projects, snippets or groups");
  });

  it('refuses named containers that --kind leaves out, before any request (exit 2)', async () => {
    sb.clearRequests();
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--group', 'acme', '--kind', 'projects'], {
      env: env(sb),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe('svc: --group names groups, but --kind is projects: drop --kind or make it groups or all');
    expect(sb.requests()).toHaveLength(0);
  });

  it('says group moves are a paid-tier feature: an error for --kind groups, a skipped kind for --kind all', async () => {
    const groups = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'groups'], { env: env(free) });
    expect(groups.exitCode).toBe(5);
    expect(groups.stderr).toMatch(/no group storage moves \(group repository moves are a paid-tier feature\)/);
    const all = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--wait', ...FAST], { env: env(free) });
    expect(all.exitCode).toBe(0);
    expect(all.stderr).toMatch(/warning: skipping groups/);
    expect(all.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['kind', 'projects', 'snippets', '']);
  });
});

describe('parseWeights', () => {
  it('accepts NAME=0..100 and refuses anything else', () => {
    expect(parseWeights(['default=0', 'storage2=100'])).toEqual({ default: 0, storage2: 100 });
    for (const bad of ['default', 'default=101', 'default=-1', 'default=1.5', '=5', 'default=x']) {
      expect(() => parseWeights([bad]), bad).toThrow(/STORAGE=WEIGHT/);
    }
  });
});

describe('dry run, verify, list, get, weights', () => {
  it('--dry-run lists the projects on the source and changes nothing', async () => {
    sb.clearRequests();
    const r = await svc(
      ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--dry-run', '-o', 'json'],
      { env: env(sb) },
    );
    expect(r.exitCode).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ kind: string; id: number }>;
    expect(rows.map((row) => row.id)).toEqual(sb.state.projectIdsOnStorage('default'));
    expect(sb.requests().every((q) => q.method === 'GET')).toBe(true);
  });

  it('--dry-run ends with its count as an information line for each kind, not a warning', async () => {
    const projects = sb.state.projectIdsOnStorage('default').length;
    const groups = idsOn(sb, 'group', 'default').length;
    const expected: Array<[string, string]> = [
      ['projects', `dry run: ${projects} repositories would move (${projects} projects); nothing was changed\n`],
      ['groups', `dry run: ${groups} repositories would move (${groups} groups); nothing was changed\n`],
      [
        'snippets',
        'dry run: 0 repositories would move, and every snippet on default, which this instance cannot list by storage; nothing was changed\n',
      ],
    ];
    for (const [kind, stderr] of expected) {
      const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', kind, '--dry-run'], {
        env: env(sb),
      });
      expect([kind, r.exitCode, r.stderr]).toEqual([kind, 0, stderr]);
    }
  });

  it('--dry-run counts every kind it can list and says once which it cannot', async () => {
    const r = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--dry-run'], { env: env(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    const projects = sb.state.projectIdsOnStorage('default').length;
    const groups = idsOn(sb, 'group', 'default').length;
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1 + projects + groups);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `dry run: ${projects + groups} repositories would move (${projects} projects, ${groups} groups), and every snippet on default, which this instance cannot list by storage; nothing was changed`,
    ]);
    const quiet = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--dry-run', '-q'], { env: env(sb) });
    expect([quiet.exitCode, quiet.stdout, quiet.stderr]).toEqual([0, r.stdout, '']);
  });

  it('schedules named containers singly, then verify passes for them and fails (8) while others remain', async () => {
    const r = await svc(
      [
        'storage-move',
        'schedule',
        '--from',
        'default',
        '--to',
        'storage2',
        '--project',
        '5',
        '--group',
        'acme',
        '--wait',
        ...FAST,
        '-o',
        'json',
      ],
      { env: env(sb) },
    );
    expect(r.exitCode).toBe(0);
    expect(sb.state.project(5)?.storage).toBe('storage2');
    expect(sb.state.group('acme')?.storage).toBe('storage2');
    const remaining = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'projects', '-o', 'json'], { env: env(sb) });
    expect(remaining.exitCode).toBe(8);
    const rows = JSON.parse(remaining.stdout) as Array<{ id: number; reason: string }>;
    expect(rows.map((row) => row.id)).toEqual(sb.state.projectIdsOnStorage('default'));
    expect(remaining.stderr.trimEnd().split('\n').at(-1)).toBe(`svc: ${rows.length} repositories remain on default`);
    expect(remaining.stderr).not.toMatch(/warning: .*remain/);
    const empty = await svc(['storage-move', 'verify', '--from', 'storage2', '--kind', 'projects'], { env: env(sb) });
    expect(empty.exitCode).toBe(8);
    for (const id of sb.state.projectIdsOnStorage('default')) sb.state.setProjectStorage(id, 'storage2');
    const ok = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'projects'], { env: env(sb) });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('nothing remains on default');
  });

  it('verify checks the latest move of kinds it cannot list by storage', async () => {
    const move = await svc(['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--snippet', '3', '--wait', ...FAST], {
      env: env(sb),
    });
    expect(move.exitCode).toBe(0);
    const back = await svc(['storage-move', 'schedule', '--from', 'storage2', '--to', 'default', '--snippet', '3', '--wait', ...FAST], {
      env: env(sb),
    });
    expect(back.exitCode).toBe(0);
    const r = await svc(['storage-move', 'verify', '--from', 'default', '--kind', 'snippets', '-o', 'json'], { env: env(sb) });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stdout)).toEqual([
      { kind: 'snippets', id: 3, name: expect.any(String), reason: expect.stringMatching(/^move \d+ finished$/) },
    ]);
  });

  it('lists moves newest first with filters, and shows one', async () => {
    const r = await svc(['storage-move', 'list', '--state', 'finished', '--to', 'storage2', '--all', '-o', 'json'], { env: env(sb) });
    expect(r.exitCode).toBe(0);
    const moves = JSON.parse(r.stdout) as Array<{ id: number; state: string; destination_storage_name: string; container_id: number }>;
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((m) => m.state === 'finished' && m.destination_storage_name === 'storage2')).toBe(true);
    expect(moves.map((m) => m.id)).toEqual([...moves.map((m) => m.id)].sort((a, b) => b - a));
    const every = await svc(['storage-move', 'list', '--kind', 'all', '--to', 'storage2', '--all', '-o', 'json'], { env: env(sb) });
    expect(every.exitCode, every.stderr).toBe(0);
    const kinds = (JSON.parse(every.stdout) as Array<{ kind: string }>).map((m) => m.kind);
    expect([...new Set(kinds)]).toEqual(['projects', 'snippets', 'groups']);
    const one = await svc(['storage-move', 'get', String(moves[0]?.id)], { env: env(sb) });
    expect(one.exitCode).toBe(0);
    expect(one.stdout.split('\n')[0]).toBe(
      'id\tstate\tsource_storage_name\tdestination_storage_name\tcontainer_id\tcontainer\tcreated_at\terror_message',
    );
    const missing = await svc(['storage-move', 'get', '999999', '--kind', 'groups'], { env: env(sb) });
    expect(missing.exitCode).toBe(5);
  });

  it('shows and sets the storage weights, validating them locally', async () => {
    const bad = await svc(['storage-move', 'weights', '--set', 'storage2=101'], { env: env(sb) });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/expected STORAGE=WEIGHT with a whole weight from 0 to 100/);
    const unknown = await svc(['storage-move', 'weights', '--set', 'nowhere=5'], { env: env(sb) });
    expect(unknown.exitCode).toBe(6);
    expect(unknown.stderr).toMatch(/nowhere/);
    const set = await svc(['storage-move', 'weights', '--set', 'default=0', '--set', 'storage2=100', '-o', 'json'], { env: env(sb) });
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual([
      { storage: 'default', weight: 0 },
      { storage: 'storage2', weight: 100 },
    ]);
    expect(sb.state.storageWeights()).toEqual({ default: 0, storage2: 100 });
    const show = await svc(['storage-move', 'weights'], { env: env(sb) });
    expect(show.stdout).toBe('storage\tweight\ndefault\t0\nstorage2\t100\n');
  });
});
