import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/commands/shared/progress.js';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

// `svc releases download` over the sandbox: the release (releases.rb), its links (here to the sandbox's
// generic package registry, generic_packages.rb, or to another host) and the source archive (repositories.rb).
describe('svc releases download', () => {
  const suite = useSandbox({ projects: 3 });
  const base = () => `${suite.sandbox.url}/api/v4`;
  const admin = () => ({ 'PRIVATE-TOKEN': suite.sandbox.tokens.admin });
  const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
  const packageUrl = (file: string) => `${base()}/projects/1/packages/generic/app/1.0.0/${file}`;
  const release = async (tag: string, links: Record<string, string>) => {
    const args = ['releases', 'create', '1', '--tag', tag, '--ref', 'main', '-q'];
    for (const [name, url] of Object.entries(links)) args.push('--link', `${name}=${url}`);
    expect((await suite.run(args)).exitCode).toBe(0);
  };
  const sourceName = (tag: string) => `${suite.sandbox.state.project(1)!.path}-${tag}.tar.gz`;
  const archive = async (tag: string) =>
    Buffer.from(await (await fetch(`${base()}/projects/1/repository/archive.tar.gz?sha=${tag}`, { headers: admin() })).arrayBuffer());

  it('saves every link and the source archive under their names, with the token only on the instance’s API', async () => {
    const put = await fetch(packageUrl('app-linux'), {
      method: 'PUT',
      headers: { ...admin(), 'content-type': 'application/octet-stream' },
      body: binary,
    });
    expect(put.status).toBe(201);
    await release('v9.0.0', {
      'app-linux': packageUrl('app-linux'),
      'README.txt': `${base()}/projects/1/repository/files/README.md/raw?ref=main`,
    });
    const dir = tempDir();
    const result = await suite.run(['releases', 'download', '1', 'v9.0.0', '--dir', dir]);
    const sent = suite.requests().map((r) => [r.rawPath, r.headers['private-token'] !== undefined]);
    expect(sent).toEqual([
      ['/api/v4/projects/1/releases/v9.0.0', true],
      ['/api/v4/projects/1/packages/generic/app/1.0.0/app-linux', true],
      ['/api/v4/projects/1/repository/files/README.md/raw', true],
      ['/api/v4/projects/1/repository/archive.tar.gz', true],
    ]);
    const readme = Buffer.from(
      await (await fetch(`${base()}/projects/1/repository/files/README.md/raw?ref=main`, { headers: admin() })).arrayBuffer(),
    );
    const source = await archive('v9.0.0');
    expect(result).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `saved 3 of 3 files of release v9.0.0 in ${dir} (${formatBytes(binary.length + readme.length + source.length)})\n`,
    });
    expect(readdirSync(dir).sort()).toEqual(['README.txt', 'app-linux', sourceName('v9.0.0')].sort());
    expect(readFileSync(join(dir, 'app-linux'))).toEqual(binary);
    expect(readFileSync(join(dir, 'README.txt'))).toEqual(readme);
    expect(readFileSync(join(dir, sourceName('v9.0.0')))).toEqual(source);
  });

  it('exits 8 naming each failure: an unsafe name, a missing file, a short body, a file already there; saves the rest', async () => {
    const seen: IncomingHttpHeaders[] = [];
    // Another host, which promises 100 bytes and sends 40.
    const short = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'Content-Length': '100' });
      res.write(Buffer.alloc(40, 1), () => res.socket?.destroy());
    });
    await new Promise<void>((done) => short.listen(0, '127.0.0.1', done));
    const shortUrl = `http://127.0.0.1:${(short.address() as AddressInfo).port}/app.bin`;
    try {
      await fetch(packageUrl('ok.bin'), {
        method: 'PUT',
        headers: { ...admin(), 'content-type': 'application/octet-stream' },
        body: binary,
      });
      await release('v9.1.0', {
        '../evil': packageUrl('evil.bin'),
        missing: packageUrl('nope.bin'),
        short: shortUrl,
        'ok.bin': packageUrl('ok.bin'),
        taken: packageUrl('taken.bin'),
      });
      const dir = tempDir();
      writeFileSync(join(dir, 'taken'), 'mine');
      const result = await suite.run(['releases', 'download', '1', 'v9.1.0', '--dir', dir, '--sources', 'none']);
      expect(result.exitCode).toBe(8);
      expect(result.stderr).toBe(
        [
          'warning: "../evil" failed: refusing the name: a path, not a file name',
          'warning: "missing" failed: GET /projects/1/packages/generic/app/1.0.0/nope.bin failed: 404 Package Not Found',
          // The connection ends 60 bytes before the Content-Length the server promised.
          `warning: "short" failed: downloading short failed after ${formatBytes(40)}: the server closed the connection (UND_ERR_SOCKET)`,
          `warning: "taken" failed: ${join(dir, 'taken')} already exists; pass --force to replace it or --dir another directory`,
          `saved 1 of 5 files of release v9.1.0 in ${dir} (${formatBytes(binary.length)})`,
          'svc: 4 of 5 files of release v9.1.0 failed',
          '',
        ].join('\n'),
      );
      expect(readdirSync(dir).sort()).toEqual(['ok.bin', 'taken']);
      expect(readFileSync(join(dir, 'taken'), 'utf8')).toBe('mine');
      expect(seen.map((h) => [h['private-token'], h.authorization])).toEqual([[undefined, undefined]]);
    } finally {
      short.close();
    }
  });

  it('refuses a bad --sources before any request; an unknown release exits 5', async () => {
    expect(await suite.run(['releases', 'download', '1', 'v9.0.0', '--dir', tempDir(), '--sources', 'rar'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --sources rar: give formats among tar.gz, zip, tar, tar.bz2, or none\n',
    });
    expect(suite.requests()).toEqual([]);
    const missing = await suite.run(['releases', 'download', '1', 'v0.0.404', '--dir', tempDir()]);
    expect([missing.exitCode, missing.stderr]).toEqual([5, 'svc: GET /projects/1/releases/v0.0.404 failed: 404 Not Found\n']);
  });
});
