import { existsSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, isolatedEnv, spawnSvc, svc, tempDir } from '../support/harness.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const CREDENTIAL_HEADERS = ['private-token', 'job-token', 'authorization', 'sudo', 'cookie'];

/** The archive as the object store serves it, fetched by the test itself. */
async function referenceArchive(project: number, job: number): Promise<Buffer> {
  const redirect = await fetch(`${suite.sandbox.url}/api/v4/projects/${project}/jobs/${job}/artifacts`, {
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    redirect: 'manual',
  });
  expect(redirect.status).toBe(302);
  return Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
}

describe('jobs artifacts', () => {
  it('follows the redirect to object storage without credentials and saves the archive atomically', async () => {
    const expected = await referenceArchive(2, 7);
    const dir = tempDir();
    const out = join(dir, 'build.zip');
    const result = await suite.run(['jobs', 'artifacts', suite.sandbox.state.project(2)!.fullPath, '7', '--out', out, '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(out).equals(expected)).toBe(true);
    expect(readdirSync(dir)).toEqual(['build.zip']);
    expect(JSON.parse(result.stdout)).toEqual({ file: out, size: expected.length, job_id: 7 });
    expect(result.stderr).toMatch(/^saved .*build\.zip \([\d.]+ KiB\)\n$/);
    const [api] = suite.requests('api');
    expect(api!.rawPath).toBe(`/api/v4/projects/${suite.sandbox.state.project(2)!.fullPath.replace(/\//g, '%2F')}/jobs/7/artifacts`);
    expect(api!.headers['private-token']).toBe(suite.sandbox.tokens.admin);
    const objects = suite.requests('objects');
    expect(objects).toHaveLength(1);
    expect(objects[0]!.status).toBe(200);
    for (const header of CREDENTIAL_HEADERS) expect(objects[0]!.headers[header]).toBeUndefined();
  });

  it('works with a job token given as SVC_TOKEN_TYPE=job or as CI_JOB_TOKEN', async () => {
    const expected = await referenceArchive(2, 7);
    const dir = tempDir();
    const viaType = await suite.run(['jobs', 'artifacts', '2', '7', '--out', join(dir, 'a.zip')], {
      token: suite.sandbox.tokens.job,
      tokenType: 'job',
    });
    expect(viaType.exitCode).toBe(0);
    expect(suite.requests('api')[0]!.headers['job-token']).toBe(suite.sandbox.tokens.job);
    for (const header of CREDENTIAL_HEADERS) expect(suite.requests('objects')[0]!.headers[header]).toBeUndefined();
    suite.sandbox.clearRequests();
    const viaCi = await svc(['jobs', 'artifacts', '2', '7'], {
      env: { CI_SERVER_URL: suite.sandbox.url, CI_JOB_TOKEN: suite.sandbox.tokens.job },
      cwd: dir,
    });
    expect(viaCi.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'artifacts.zip')).equals(expected)).toBe(true);
    expect(readFileSync(join(dir, 'a.zip')).equals(expected)).toBe(true);
    const otherProject = await suite.run(['jobs', 'artifacts', '4', '1', '--out', join(dir, 'b.zip')], {
      token: suite.sandbox.tokens.job,
      tokenType: 'job',
    });
    expect(otherProject.exitCode).toBe(4);
    expect(otherProject.stderr).toContain('Authentication by CI/CD job token not allowed');
    expect(otherProject.stderr).toContain('job token allowlist does not include');
    expect(existsSync(join(dir, 'b.zip'))).toBe(false);
  });

  it('keeps the pre-signed object-storage query out of --debug output', async () => {
    const dir = tempDir();
    const result = await suite.run(['jobs', 'artifacts', '2', '7', '--out', join(dir, 'c.zip'), '--debug']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/redirect 302 → http:\/\/[^ ]+\/artifacts\.zip\?\[redacted\]/);
    expect(result.stderr).not.toMatch(/X-Amz-Signature/i);
  });

  it('writes the archive to stdout with --out -', async () => {
    const expected = await referenceArchive(2, 7);
    const result = await execa('node', [BIN, 'jobs', 'artifacts', '2', '7', '--out', '-'], {
      env: isolatedEnv({ env: sandboxEnv(suite.sandbox) }),
      extendEnv: false,
      encoding: 'buffer',
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(Buffer.from(result.stdout as Uint8Array).equals(expected)).toBe(true);
  });

  it('refuses to replace a file unless --force, before any request', async () => {
    const dir = tempDir();
    const out = join(dir, 'artifacts.zip');
    writeFileSync(out, 'keep me');
    const refused = await suite.run(['jobs', 'artifacts', '2', '7'], { cwd: dir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(`svc: ${out} already exists; pass --force to replace it or --out another file\n`);
    expect(readFileSync(out, 'utf8')).toBe('keep me');
    expect(suite.sandbox.requests()).toHaveLength(0);
    const forced = await suite.run(['jobs', 'artifacts', '2', '7', '--force'], { cwd: dir });
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(out).subarray(0, 2).toString()).toBe('PK');
    expect(readdirSync(dir)).toEqual(['artifacts.zip']);
    const dangling = join(dir, 'dangling.zip');
    symlinkSync(join(dir, 'nowhere'), dangling);
    const overLink = await suite.run(['jobs', 'artifacts', '2', '7', '--out', dangling]);
    expect(overLink.exitCode).toBe(2);
    expect(overLink.stderr).toBe(`svc: --out ${dangling} already exists; pass --force to replace it or --out another file\n`);
    expect(readlinkSync(dangling)).toBe(join(dir, 'nowhere'));
    const intoDirectory = await suite.run(['jobs', 'artifacts', '2', '7', '--out', dir]);
    expect(intoDirectory.exitCode).toBe(2);
    expect(intoDirectory.stderr).toContain('is a directory');
  });

  it('keeps the saved line one line when the file name holds a newline (#10 case 17)', async () => {
    const dir = tempDir();
    const out = join(dir, 'two\nlines.zip');
    const result = await suite.run(['jobs', 'artifacts', '2', '7', '--out', out]);
    expect(result.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual(['two\nlines.zip']);
    expect(result.stderr).toMatch(/^saved [^\n]*two\\nlines\.zip \([\d.]+ KiB\)\n$/);
  });

  it('leaves no file behind when the job has no archive (exit 5) or the job is unknown', async () => {
    const dir = tempDir();
    const testJob = await suite.run(['jobs', 'artifacts', '2', '8', '--out', join(dir, 'x.zip')]);
    expect(testJob.exitCode).toBe(5);
    expect(testJob.stdout).toBe('');
    expect(testJob.stderr).toMatch(
      /^svc: GET \/projects\/2\/jobs\/8\/artifacts failed: 404 .* \(job 8 has no artifacts, or they expired\)\n$/,
    );
    const unknown = await suite.run(['jobs', 'artifacts', '2', '999999', '--out', join(dir, 'y.zip')]);
    expect(unknown.exitCode).toBe(5);
    expect(unknown.stderr).toMatch(/^svc: GET \/projects\/2\/jobs\/999999\/artifacts failed: 404 .* \(no job 999999 in this project\)\n$/);
    expect(readdirSync(dir)).toEqual([]);
    const badId = await suite.run(['jobs', 'artifacts', '2', 'x']);
    expect(badId.exitCode).toBe(2);
  });
});

describe('jobs artifacts interrupted', () => {
  let slow: Sandbox;
  beforeAll(async () => {
    slow = await startTestSandbox({ projects: 3, faults: 'slow=1', slowMs: 10_000 });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('exits 130 on Ctrl-C and removes the temporary file; nothing exists under the final name', async () => {
    const dir = tempDir();
    const child = spawnSvc(['jobs', 'artifacts', '2', '7', '--out', join(dir, 'artifacts.zip')], { env: sandboxEnv(slow) });
    for (let i = 0; i < 200 && !readdirSync(dir).some((f) => f.endsWith('.part')); i++) await delay(25);
    expect(readdirSync(dir).some((f) => f.endsWith('.part'))).toBe(true);
    await delay(200);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toBe('svc: interrupted\n');
    expect(readdirSync(dir)).toEqual([]);
  });
});
