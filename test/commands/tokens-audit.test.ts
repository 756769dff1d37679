import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { req } from '../sandbox/helpers.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { BIN, isolatedEnv, parseNdjson, spawnSvc, svc, tempDir } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10, users: 40 });
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

interface Rec {
  kind: string;
  id: number;
  expiring: boolean;
  unused: boolean | null;
}

async function api(path: string, init: { method?: string; json?: unknown } = {}) {
  const r = await req(suite.sandbox.url, `/api/v4${path}`, { token: suite.sandbox.tokens.admin, ...init });
  return r.json;
}

const ids = (list: Array<{ id: number }>) => list.map((t) => t.id);

/** Every token as kind:id, read route by route from the sandbox (every list here fits one page). */
async function expectedTokens(): Promise<string[]> {
  const out: string[] = [];
  const bots = new Set<number>();
  for (const [kind, owners] of [
    ['project', ids(await api('/projects?per_page=100&simple=true'))],
    ['group', ids(await api('/groups?per_page=100&all_available=true'))],
  ] as const) {
    for (const id of owners) {
      for (const t of await api(`/${kind}s/${id}/access_tokens?per_page=100`)) {
        bots.add(t.id);
        out.push(`${kind}:${t.id}`);
      }
      for (const t of await api(`/${kind}s/${id}/deploy_tokens?per_page=100`)) out.push(`deploy:${t.id}`);
    }
  }
  const impersonation = new Set<number>();
  for (const u of ids(await api('/users?per_page=100')))
    for (const t of await api(`/users/${u}/impersonation_tokens`)) impersonation.add(t.id);
  for (const t of await api('/personal_access_tokens?per_page=100')) {
    if (!bots.has(t.id)) out.push(`${impersonation.has(t.id) ? 'impersonation' : 'personal'}:${t.id}`);
  }
  return out.sort();
}

describe('tokens audit', () => {
  it('streams one record per token of every kind, and a summary with the counts and requests on stderr', async () => {
    const made = await api('/users/2/personal_access_tokens', {
      method: 'POST',
      json: { name: 'soon', scopes: ['api'], expires_at: day(10) },
    });
    const imp = await api('/users/3/impersonation_tokens', { method: 'POST', json: { name: 'imp', scopes: ['read_api'] } });
    const expected = await expectedTokens();
    const r = await suite.run(['tokens', 'audit']);
    expect(r.exitCode).toBe(0);
    const records = parseNdjson(r.stdout) as Rec[];
    expect(records.map((t) => `${t.kind}:${t.id}`).sort()).toEqual(expected);
    expect(records.find((t) => t.id === made.id)).toEqual({
      kind: 'personal',
      id: made.id,
      name: 'soon',
      owner: 'jdoe',
      owner_id: 2,
      scopes: ['api'],
      access_level: null,
      active: true,
      revoked: false,
      expires_at: day(10),
      last_used_at: null,
      expiring: true,
      unused: false,
    });
    // The same keys in the same order on every line, whatever the kind, for tools that make a table of them.
    const keys = [
      'kind',
      'id',
      'name',
      'owner',
      'owner_id',
      'scopes',
      'access_level',
      'active',
      'revoked',
      'expires_at',
      'last_used_at',
      'expiring',
      'unused',
    ];
    expect([...new Set(records.map((t) => Object.keys(t).join(',')))]).toEqual([keys.join(',')]);
    expect(records.find((t) => t.id === imp.id)).toMatchObject({ kind: 'impersonation', owner: suite.sandbox.state.user(3)!.username });
    const perKind = (k: string) => records.filter((t) => t.kind === k).length;
    const kinds = ['personal', 'impersonation', 'project', 'group', 'deploy'].map((k) => `${perKind(k)} ${k}`).join(', ');
    expect(r.stderr).toBe(
      `audited ${records.length} tokens (${kinds}) in ${suite.requests().length} requests: ` +
        `${records.filter((t) => t.expiring).length} active expire within 30 days, ${records.filter((t) => t.unused).length} active unused for 90 days\n`,
    );
  });

  it('with --expires-within and/or --unused-for prints only the tokens that match at least one window given', async () => {
    const all = parseNdjson((await suite.run(['tokens', 'audit'])).stdout) as Array<Rec & { active: boolean; expires_at: string | null }>;
    const within14 = (t: (typeof all)[number]) => t.active && t.expires_at !== null && t.expires_at <= day(14);
    const key = (t: Rec) => `${t.kind}:${t.id}`;
    const expiring = await suite.run(['tokens', 'audit', '--expires-within', '2w']);
    const expiringRecords = parseNdjson(expiring.stdout) as Rec[];
    expect(expiringRecords.map(key)).toEqual(all.filter(within14).map(key));
    expect(expiringRecords.length).toBeGreaterThan(0);
    expect(expiringRecords.length).toBeLessThan(all.length);
    expect(expiring.stderr).toMatch(new RegExp(`active unused for 90 days; printed ${expiringRecords.length} \\(expiring\\)\n$`));
    // Each record still says which window it matched: here the default 90 days of --unused-for marks it too.
    expect(expiringRecords.map((t) => t.unused)).toEqual(all.filter(within14).map((t) => t.unused));
    const either = await suite.run(['tokens', 'audit', '--expires-within', '2w', '--unused-for', '90d']);
    const eitherRecords = parseNdjson(either.stdout) as Rec[];
    expect(eitherRecords.map(key)).toEqual(all.filter((t) => within14(t) || t.unused === true).map(key));
    expect(eitherRecords.every((t) => t.expiring || t.unused === true)).toBe(true);
    expect(either.stderr).toMatch(new RegExp(`; printed ${eitherRecords.length} \\(expiring or unused\\)\n$`));
    const unused = parseNdjson((await suite.run(['tokens', 'audit', '--unused-for', '90d'])).stdout) as Rec[];
    expect(unused.map(key)).toEqual(all.filter((t) => t.unused === true).map(key));
  });

  it('takes the windows as durations', async () => {
    const short = await suite.run(['tokens', 'audit', '--expires-within', '90m', '--unused-for', '36h']);
    const shortRecords = parseNdjson(short.stdout) as Rec[];
    expect(short.stderr.replace(/^audited .* requests: /, '')).toBe(
      `${shortRecords.filter((t) => t.expiring).length} active expire within 90 minutes, ${shortRecords.filter((t) => t.unused).length} active unused for 36 hours; printed ${shortRecords.length} (expiring or unused)\n`,
    );
    const bad = await suite.run(['tokens', 'audit', '--unused-for', 'ages']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      "svc: error: option '--unused-for <duration>' argument 'ages' is invalid. --unused-for must be a whole number of weeks, days, hours or minutes above 0, such as 30d, 12w, 12h or 90m\n",
    ]);
  });

  it("refuses a regular user's token with the role named (exit 4), before reading any token", async () => {
    const r = await suite.run(['tokens', 'audit'], { token: suite.sandbox.tokens.user });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      4,
      '',
      "svc: tokens audit needs an administrator's token: jdoe is not an administrator (the administrator role is missing)\n",
    ]);
    expect(suite.requests().map((q) => q.rawPath)).toEqual(['/api/v4/user']);
  });

  it('sends at most --max-in-flight requests at once', async () => {
    const sb = await startTestSandbox({ projects: 30, latencyMs: 15 });
    try {
      const r = await svc(['tokens', 'audit', '--max-in-flight', '3'], { env: sandboxEnv(sb) });
      expect(r.exitCode).toBe(0);
      expect(sb.stats().concurrency.maxActive).toBe(3);
    } finally {
      await sb.close();
    }
  });
});

describe('tokens audit against a service whose projects change during the pass', () => {
  it('skips a project that is gone (404) with a warning, and audits the rest', async () => {
    const token = (id: number, extra: Record<string, unknown>) => ({
      id,
      name: `t${id}`,
      revoked: false,
      created_at: '2020-01-01T00:00:00.000Z',
      scopes: ['api'],
      active: true,
      expires_at: null,
      last_used_at: null,
      ...extra,
    });
    const answers: Record<string, unknown> = {
      '/api/v4/user': { id: 1, username: 'root', is_admin: true },
      '/api/v4/projects': [
        { id: 1, path_with_namespace: 'a/one' },
        { id: 2, path_with_namespace: 'a/two' },
      ],
      '/api/v4/projects/1/access_tokens': [token(11, { user_id: 900, access_level: 30 })],
      '/api/v4/projects/1/deploy_tokens': [],
      '/api/v4/groups': [],
      '/api/v4/users': [{ id: 5, username: 'eve', bot: false }],
      '/api/v4/personal_access_tokens': [token(11, { user_id: 900 }), token(7, { user_id: 5 })],
      '/api/v4/users/5/impersonation_tokens': [],
    };
    const server = await startScriptedServer();
    try {
      const url = server.add('changing', (request, res) => {
        const path = new URL(request.url ?? '/', 'http://x').pathname.replace(/^\/changing/, '');
        const body = answers[path];
        if (body === undefined) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Project Not Found"}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
      const r = await svc(['tokens', 'audit'], { env: { SVC_URL: url, SVC_TOKEN: 'scripted-admin-token' } });
      expect(r.exitCode).toBe(0);
      expect((parseNdjson(r.stdout) as Rec[]).map((t) => `${t.kind}:${t.id}`)).toEqual(['project:11', 'personal:7']);
      expect(r.stderr).toBe(
        'warning: project a/two (2) is gone since it was listed (404); its tokens went with it\n' +
          'audited 2 tokens (1 personal, 0 impersonation, 1 project, 0 group, 0 deploy) in 9 requests: 0 active expire within 30 days, 2 active unused for 90 days\n',
      );
    } finally {
      await server.close();
    }
  });
});

describe('tokens audit to a reader that goes away', () => {
  it('ends the pass early and quietly with exit 0 once `head -1` has its line', async () => {
    const sb = await startTestSandbox({ projects: 2, users: 1500 });
    try {
      const result = await execa('bash', ['-c', `node '${BIN}' tokens audit | head -1; exit "\${PIPESTATUS[0]}"`], {
        env: isolatedEnv({ env: sandboxEnv(sb) }),
        extendEnv: false,
        reject: false,
      });
      expect([result.exitCode, result.stderr]).toEqual([0, '']);
      const first = JSON.parse(result.stdout) as Rec & { name: string };
      expect(result.stdout).toBe(JSON.stringify(first));
      // A whole pass looks up the impersonation tokens of each of the 1,500 users.
      const impersonationLookups = sb.requests().filter((r) => r.origin === 'api' && r.rawPath.endsWith('/impersonation_tokens'));
      expect(impersonationLookups.length).toBeLessThan(500);
    } finally {
      await sb.close();
    }
  });
});

describe('tokens audit interrupted', () => {
  it('exits 130 saying the audit is incomplete and how many records it wrote, each of them whole', async () => {
    const sb = await startTestSandbox({ projects: 30, latencyMs: 200 });
    try {
      const child = spawnSvc(['tokens', 'audit', '--max-in-flight', '2'], { env: sandboxEnv(sb) });
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      child.kill('SIGINT');
      const end = await child;
      const written = parseNdjson(String(end.stdout)) as Rec[];
      expect([end.exitCode, String(end.stderr)]).toEqual([
        130,
        `svc: interrupted: the audit is incomplete; ${written.length} tokens are on stdout\n`,
      ]);
    } finally {
      await sb.close();
    }
  });
});

describe('tokens audit on a terminal', () => {
  it('shows the projects, groups and users scanned and the tokens found on stderr, and clears the line before the summary', async () => {
    const token = (id: number, userId: number) => ({
      id,
      name: `t${id}`,
      user_id: userId,
      revoked: false,
      created_at: '2020-01-01T00:00:00.000Z',
      scopes: ['api'],
      active: true,
      expires_at: null,
      last_used_at: null,
    });
    const answers: Record<string, unknown> = {
      '/api/v4/user': { id: 1, username: 'root', is_admin: true },
      '/api/v4/projects': [{ id: 1, path_with_namespace: 'a/one' }],
      '/api/v4/projects/1/access_tokens': [{ ...token(11, 900), access_level: 30 }],
      '/api/v4/projects/1/deploy_tokens': [],
      '/api/v4/groups': [],
      '/api/v4/users': [{ id: 5, username: 'eve', bot: false }],
      '/api/v4/users/5/impersonation_tokens': [],
    };
    // The personal tokens wait until the test has seen the progress of everything before them.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await startScriptedServer();
    try {
      const url = server.add('progress', (request, res) => {
        const path = new URL(request.url ?? '/', 'http://x').pathname.replace(/^\/progress/, '');
        const answer = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (path === '/api/v4/personal_access_tokens') void held.then(() => answer([token(11, 900), token(7, 5)]));
        else answer(answers[path]);
      });
      const out = join(tempDir(), 'tokens.ndjson');
      const env = { ...isolatedEnv({ env: { SVC_URL: url, SVC_TOKEN: 'scripted-admin-token' } }), TERM: 'xterm-256color' };
      const term = spawnPty(['bash', '-c', `exec node '${BIN}' tokens audit > '${out}'`], { env, columns: 120 });
      await term.waitFor('tokens audit: 1 projects, 0 groups, 1 users scanned; 1 tokens found');
      release();
      const end = await term.exit();
      expect(end.exitCode).toBe(0);
      const summary =
        'audited 2 tokens (1 personal, 0 impersonation, 1 project, 0 group, 0 deploy) in 8 requests: 0 active expire within 30 days, 2 active unused for 90 days\r\n';
      // After the last progress line: the line erased (only escape sequences), then the summary.
      const tail = end.output.slice(end.output.lastIndexOf('tokens found') + 'tokens found'.length);
      expect(tail.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')).toBe(summary);
      expect(tail.slice(0, tail.indexOf('audited'))).toMatch(/\x1b\[0?K/);
      expect((parseNdjson(readFileSync(out, 'utf8')) as Rec[]).map((t) => `${t.kind}:${t.id}`)).toEqual(['project:11', 'personal:7']);
    } finally {
      release();
      await server.close();
    }
  });
});
