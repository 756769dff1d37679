import { describe, expect, it } from 'vitest';
import { parseNdjson, svc } from '../support/harness.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 300 });
const query = (raw: string) => Object.fromEntries(new URLSearchParams(raw));

describe('releases list', () => {
  it('lists releases in json, ndjson and tsv', async () => {
    const json = await suite.run(['releases', 'list', suite.sandbox.state.project(2)!.fullPath, '-o', 'json']);
    expect(json.exitCode).toBe(0);
    expect((JSON.parse(json.stdout) as Array<{ tag_name: string }>).map((r) => r.tag_name)).toEqual(['v1.1.0', 'v1.0.0']);
    expect(suite.requests()[0]!.rawPath).toBe(
      `/api/v4/projects/${suite.sandbox.state.project(2)!.fullPath.replace(/\//g, '%2F')}/releases`,
    );
    const ndjson = await suite.run(['releases', 'list', '2', '-o', 'ndjson', '--fields', 'tag_name']);
    expect(parseNdjson(ndjson.stdout)).toEqual([{ tag_name: 'v1.1.0' }, { tag_name: 'v1.0.0' }]);
    const tsv = await suite.run(['releases', 'list', '2', '--limit', '1']);
    expect(tsv.stdout.split('\n')[0]).toBe('tag_name\tname\treleased_at\tcommit.short_id');
    expect(tsv.stderr).toBe('');
  });

  it("accepts a job token for the job's own project only", async () => {
    const own = await suite.run(['releases', 'list', '2', '-o', 'json'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(own.exitCode).toBe(0);
    expect(suite.requests()[0]!.headers['job-token']).toBe(suite.sandbox.tokens.job);
    const other = await suite.run(['releases', 'list', '4'], { token: suite.sandbox.tokens.job, tokenType: 'job' });
    expect(other.exitCode).toBe(4);
    const missing = await suite.run(['releases', 'list', 'no/such']);
    expect(missing.exitCode).toBe(5);
  });
});

describe('namespaces list', () => {
  it('lists namespaces with a search, and needs a token', async () => {
    const result = await suite.run(['namespaces', 'list', '--search', 'acme', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    const records = JSON.parse(result.stdout) as Array<{ full_path: string }>;
    const direct = await fetch(`${suite.sandbox.url}/api/v4/namespaces?search=acme&per_page=100`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    expect(records).toEqual(await direct.json());
    expect(records.every((n) => n.full_path.includes('acme'))).toBe(true);
    expect(query(suite.requests()[0]!.rawQuery)).toEqual({ search: 'acme', per_page: '100' });
    const tsv = await suite.run(['namespaces', 'list', '--limit', '2']);
    expect(tsv.stdout.split('\n')[0]).toBe('id\tfull_path\tkind\tparent_id');
    const anonymous = await svc(['namespaces', 'list'], { env: { SVC_URL: suite.sandbox.url } });
    expect(anonymous.exitCode).toBe(2);
    expect(anonymous.stderr).toContain('no token');
    const bad = await suite.run(['namespaces', 'list'], { token: 'wrong-token-value' });
    expect(bad.exitCode).toBe(3);
  });
});

describe('groups list', () => {
  it('pages by offset with a token, by keyset without one, and returns the same groups', async () => {
    const withToken = await suite.run(['groups', 'list', '--all', '--per-page', '3', '-o', 'ndjson']);
    expect(withToken.exitCode).toBe(0);
    const offsetRequests = suite.requests();
    expect(offsetRequests.length).toBeGreaterThan(1);
    expect(offsetRequests.every((r) => query(r.rawQuery).pagination === undefined)).toBe(true);

    suite.sandbox.clearRequests();
    const anonymous = await svc(['groups', 'list', '--all', '--per-page', '3', '-o', 'ndjson'], { env: { SVC_URL: suite.sandbox.url } });
    expect(anonymous.exitCode).toBe(0);
    const keysetRequests = suite.sandbox.requests();
    expect(query(keysetRequests[0]!.rawQuery)).toEqual({ per_page: '3', pagination: 'keyset', order_by: 'name', sort: 'asc' });
    expect(keysetRequests[1]!.rawQuery).toContain('cursor=');
    const publicGroups = parseNdjson(anonymous.stdout) as Array<{ id: number; visibility: string }>;
    expect(publicGroups.every((g) => g.visibility === 'public')).toBe(true);
    expect(new Set(publicGroups.map((g) => g.id)).size).toBe(publicGroups.length);
    const adminIds = (parseNdjson(withToken.stdout) as Array<{ id: number }>).map((g) => g.id);
    expect(new Set(adminIds).size).toBe(adminIds.length);
    expect(adminIds).toEqual(expect.arrayContaining(publicGroups.map((g) => g.id)));

    const short = await suite.run(['groups', 'list', '--search', 'platform', '-o', 'json']);
    expect((JSON.parse(short.stdout) as Array<{ full_path: string }>)[0]!.full_path).toBe('acme/platform');
  });
});

describe('users list', () => {
  it('pages by keyset on id by default and follows the cursor to the end', async () => {
    const result = await suite.run(['users', 'list', '--all', '--per-page', '5', '-o', 'ndjson', '--fields', 'id,username']);
    expect(result.exitCode).toBe(0);
    const users = parseNdjson(result.stdout) as Array<{ id: number }>;
    const ids = users.map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(12 + 300 / 50);
    const requests = suite.requests();
    expect(query(requests[0]!.rawQuery)).toEqual({ order_by: 'id', sort: 'asc', per_page: '5', pagination: 'keyset' });
    expect(requests.every((r) => query(r.rawQuery).page === undefined)).toBe(true);
    const tsv = await suite.run(['users', 'list', '--limit', '2', '--order-by', 'username', '--sort', 'desc']);
    expect(tsv.stdout.split('\n')[0]).toBe('id\tusername\tname\tstate');
    expect(query(suite.requests()[0]!.rawQuery)).toMatchObject({ pagination: 'keyset', order_by: 'username', sort: 'desc' });
  });

  it('uses offset paging for a username lookup', async () => {
    const result = await suite.run(['users', 'list', '--username', 'jdoe', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ id: number }>).map((u) => u.id)).toEqual([2]);
    expect(query(suite.requests()[0]!.rawQuery).pagination).toBeUndefined();
    const bad = await suite.run(['users', 'list', '--order-by', 'email']);
    expect(bad.exitCode).toBe(2);
    expect(suite.requests()).toHaveLength(0);
  });
});
