import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/commands/shared/progress.js';
import { BIN, isolatedEnv, tempDir } from '../support/harness.js';
import { sandboxEnv } from '../support/sandbox.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const CREDENTIAL_HEADERS = ['private-token', 'job-token', 'authorization', 'sudo', 'cookie'];

/** The archive the by-ref route redirects to, fetched by the test itself. */
async function refArchive(project: number, ref: string, job: string): Promise<Buffer> {
  const res = await fetch(`${suite.sandbox.url}/api/v4/projects/${project}/jobs/artifacts/${encodeURIComponent(ref)}/download?job=${job}`, {
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** One file of a zip, read by unzip, a reader independent of the sandbox. */
function unzipped(archive: Buffer, path: string): Buffer {
  const file = join(tempDir(), 'archive.zip');
  writeFileSync(file, archive);
  return execFileSync('unzip', ['-p', file, path]);
}

describe('jobs artifacts by ref and job name', () => {
  it('--out FILE prints nothing on stdout and says on stderr what it saved', async () => {
    const expected = await refArchive(2, 'main', 'build');
    const out = join(tempDir(), 'quiet.zip');
    const result = await suite.run(['jobs', 'artifacts', '2', '--ref', 'main', '--job', 'build', '--out', out]);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, '', `saved ${out} (${formatBytes(expected.length)})\n`]);
    expect(readFileSync(out).equals(expected)).toBe(true);
  });

  it('saves the archive of the latest successful job of that name on the ref, atomically', async () => {
    const expected = await refArchive(2, 'main', 'build');
    const dir = tempDir();
    const out = join(dir, 'build.zip');
    const result = await suite.run(['jobs', 'artifacts', '2', '--ref', 'main', '--job', 'build', '--out', out, '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(out).equals(expected)).toBe(true);
    expect(readdirSync(dir)).toEqual(['build.zip']);
    expect(JSON.parse(result.stdout)).toEqual({ file: out, size: expected.length, ref: 'main', job: 'build' });
    const api = onlyRequest(suite, 'GET', /artifacts/);
    expect([api.rawPath, api.rawQuery]).toEqual(['/api/v4/projects/2/jobs/artifacts/main/download', 'job=build']);
    const objects = suite.requests('objects');
    expect(objects.map((r) => r.status)).toEqual([200]);
    for (const header of CREDENTIAL_HEADERS) expect(objects[0]!.headers[header]).toBeUndefined();
  });

  it('encodes a ref with / once, and explains a 404 without leaving a file', async () => {
    const created = await suite.run(['pipeline', 'create', '2', '--ref', 'feature/login', '--wait', '--interval', '0.1', '-q']);
    expect(created.exitCode).toBe(0);
    const expected = await refArchive(2, 'feature/login', 'build');
    const dir = tempDir();
    const result = await suite.run(['jobs', 'artifacts', '2', '--ref', 'feature/login', '--job', 'build', '--out', join(dir, 'a.zip')]);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'a.zip')).equals(expected)).toBe(true);
    expect(onlyRequest(suite, 'GET', /artifacts/).rawPath).toBe('/api/v4/projects/2/jobs/artifacts/feature%2Flogin/download');

    const noArchive = await suite.run(['jobs', 'artifacts', '2', '--ref', 'main', '--job', 'test', '--out', join(dir, 'b.zip')]);
    expect([noArchive.exitCode, noArchive.stderr]).toEqual([
      5,
      'svc: GET /projects/2/jobs/artifacts/main/download failed: 404 Not Found (no successful job test with artifacts on main (a branch or tag name, not a SHA))\n',
    ]);
    const noRef = await suite.run(['jobs', 'artifacts', '2', '--ref', 'v9', '--job', 'build', '--out', join(dir, 'c.zip')]);
    expect([noRef.exitCode, noRef.stderr]).toEqual([
      5,
      'svc: GET /projects/2/jobs/artifacts/v9/download failed: 404 Not found (no successful job build with artifacts on v9 (a branch or tag name, not a SHA))\n',
    ]);
    expect(readdirSync(dir)).toEqual(['a.zip']);
  });

  it('says how to name the job: an id, or --ref with --job, not both (exit 2, no request)', async () => {
    const both = await suite.run(['jobs', 'artifacts', '2', '7', '--ref', 'main', '--job', 'build']);
    expect([both.exitCode, both.stderr]).toEqual([2, 'svc: give a job id or --ref with --job, not both\n']);
    const half = await suite.run(['jobs', 'artifacts', '2', '--ref', 'main']);
    expect([half.exitCode, half.stderr]).toEqual([
      2,
      'svc: give a job id, or --ref REF with --job NAME (the latest successful job of that name on a branch or tag)\n',
    ]);
    expect(suite.requests()).toEqual([]);
  });
});

describe('jobs artifacts --path', () => {
  it('downloads one file from inside the archive by job id: the bytes unzip finds in the archive', async () => {
    const result = await execa('node', [BIN, 'jobs', 'artifacts', '2', '7', '--path', 'build/output.bin', '--out', '-'], {
      env: isolatedEnv({ env: sandboxEnv(suite.sandbox) }),
      extendEnv: false,
      encoding: 'buffer',
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    const job7 = await fetch(`${suite.sandbox.url}/api/v4/projects/2/jobs/7/artifacts`, {
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
    });
    const bytes = Buffer.from(result.stdout as Uint8Array);
    expect(bytes.equals(unzipped(Buffer.from(await job7.arrayBuffer()), 'build/output.bin'))).toBe(true);
  });

  it('says in its help that a CI job token will do', async () => {
    const help = await suite.run(['jobs', 'artifacts', '--help']);
    expect(help.stdout.split('\n').filter((line) => line.includes('CI_JOB_TOKEN') && !line.includes('$'))).toEqual([
      'A CI job token (CI_JOB_TOKEN) is accepted, by job id and by ref alike.',
    ]);
  });

  it('saves a file by ref and job name under its own name, with a CI job token', async () => {
    const archive = await refArchive(2, 'main', 'build');
    const dir = tempDir();
    const result = await suite.run(
      ['jobs', 'artifacts', '2', '--ref', 'main', '--job', 'build', '--path', 'build/report.txt', '-o', 'json'],
      {
        token: suite.sandbox.tokens.job,
        tokenType: 'job',
        cwd: dir,
      },
    );
    expect(result.exitCode).toBe(0);
    const saved = join(dir, 'report.txt');
    expect(readFileSync(saved).equals(unzipped(archive, 'build/report.txt'))).toBe(true);
    expect(JSON.parse(result.stdout)).toEqual({
      file: saved,
      size: readFileSync(saved).length,
      ref: 'main',
      job: 'build',
      path: 'build/report.txt',
    });
    const api = onlyRequest(suite, 'GET', /artifacts/);
    expect([api.rawPath, api.rawQuery, api.headers['job-token']]).toEqual([
      '/api/v4/projects/2/jobs/artifacts/main/raw/build/report.txt',
      'job=build',
      suite.sandbox.tokens.job,
    ]);
  });

  it('refuses a --path that names a directory or leaves the archive, before any request (exit 2)', async () => {
    const cases: Array<[string, string]> = [
      ['build/', 'svc: --path build/: names a directory; give one file inside the archive, e.g. build/report.txt\n'],
      [
        '../etc/passwd',
        "svc: --path ../etc/passwd: give the file's path inside the archive without empty, '.' or '..' parts, e.g. build/report.txt\n",
      ],
      [
        'build//report.txt',
        "svc: --path build//report.txt: give the file's path inside the archive without empty, '.' or '..' parts, e.g. build/report.txt\n",
      ],
      [
        './build/report.txt',
        "svc: --path ./build/report.txt: give the file's path inside the archive without empty, '.' or '..' parts, e.g. build/report.txt\n",
      ],
    ];
    const dir = tempDir();
    for (const [path, message] of cases) {
      const result = await suite.run(['jobs', 'artifacts', '2', '7', '--path', path], { cwd: dir });
      expect([path, result.exitCode, result.stdout, result.stderr]).toEqual([path, 2, '', message]);
    }
    expect(suite.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('explains a file that is not in the archive (exit 5) and leaves nothing behind', async () => {
    const dir = tempDir();
    const result = await suite.run(['jobs', 'artifacts', '2', '7', '--path', 'build/no such.txt'], { cwd: dir });
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([
      5,
      '',
      'svc: GET /projects/2/jobs/7/artifacts/build/no%20such.txt failed: 404 Not Found (job 7 has artifacts, but no file build/no such.txt in them)\n',
    ]);
    expect(readdirSync(dir)).toEqual([]);
    // Job 8 (test) kept no artifacts: asked for a file, that is what is said.
    const none = await suite.run(['jobs', 'artifacts', '2', '8', '--path', 'build/report.txt'], { cwd: dir });
    expect([none.exitCode, none.stderr]).toEqual([
      5,
      'svc: GET /projects/2/jobs/8/artifacts/build/report.txt failed: 404 Not Found (job 8 has no artifacts, or they expired)\n',
    ]);
  });
});
