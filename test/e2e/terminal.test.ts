import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startScriptedServer } from '../drills/scripted-server.js';
import { BIN, cleanupTempDirs, isolatedEnv, svc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

let server: Awaited<ReturnType<typeof startScriptedServer>>;
let running: string;

beforeAll(async () => {
  server = await startScriptedServer();
  // A pipeline that never ends: the wait goes on until the user stops it.
  running = server.add('running', json(200, { id: 9, status: 'running', ref: 'main', web_url: 'http://x.test/p/-/pipelines/9' }));
});

afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

/** Ctrl-C under a spinner on a real terminal (#9 item 1). */
describe('Ctrl-C during a wait on a terminal', () => {
  it('pipeline wait: exits 130 with the resume line, and leaves echo and canonical mode on', async () => {
    const env = { ...isolatedEnv({ env: { SVC_URL: running, SVC_TOKEN: 'plain-token-0123456789' } }), TERM: 'xterm-256color' };
    const term = spawnPty(['node', BIN, 'pipeline', 'wait', '1', '9', '--interval', '0.2'], { env });
    await term.waitFor('pipeline 9: running');
    term.write('x\x03');
    const end = await term.exit();
    expect(end.exitCode).toBe(130);
    expect(end.output).toContain('svc: interrupted; pipeline 9 keeps running on the server');
    expect(end.mode).toMatchObject({ echo: true, canonical: true, signals: true });
  });
});

describe('binary content and a terminal', () => {
  it('files get --raw refuses to write a binary file to a terminal (exit 2) and writes nothing of it', async () => {
    const sandbox = await startTestSandbox({ projects: 2 });
    try {
      const env = { ...isolatedEnv({ env: sandboxEnv(sandbox) }), TERM: 'xterm-256color' };
      const end = await spawnPty(['node', BIN, 'files', 'get', '1', 'assets/logo.png', '--raw'], { env }).exit();
      expect(end.exitCode).toBe(2);
      expect(end.output).toBe('svc: assets/logo.png: refusing to write binary content to a terminal; redirect stdout to a file\r\n');
      const text = await spawnPty(['node', BIN, 'files', 'get', '1', 'README.md', '--raw'], { env }).exit();
      expect(text.exitCode).toBe(0);
      expect(text.output.startsWith('# ')).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe('a wait whose poll hangs (#10 case 4)', () => {
  it('pipeline wait --wait-timeout ends at its deadline with exit 8, the request in flight included', async () => {
    const hanging = server.add('hanging', (req, res) => {
      // The first answer comes at once; every later poll never gets one.
      if (server.hits('hanging') === 1)
        json(200, { id: 9, status: 'running', ref: 'main', web_url: 'http://x.test/9' })(req, res, { base: '', other: '' });
    });
    const started = Date.now();
    const result = await svc(['--timeout', '60', 'pipeline', 'wait', '1', '9', '--interval', '0.1', '--wait-timeout', '2'], {
      env: { SVC_URL: hanging, SVC_TOKEN: 'plain-token-0123456789' },
      process: true,
    });
    expect(result.exitCode).toBe(8);
    expect(result.stderr.trim().split('\n').pop()).toBe('svc: pipeline 9 still running after 2 s; it keeps running: http://x.test/9');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('Ctrl-C under the storage-move spinner (#9 item 1)', () => {
  it('storage-move schedule --wait: exits 130 with the resume command, the terminal as it was', async () => {
    const sandbox = await startTestSandbox({ projects: 3, moveMs: 60_000 });
    try {
      const env = { ...isolatedEnv({ env: sandboxEnv(sandbox) }), TERM: 'xterm-256color' };
      const term = spawnPty(
        ['node', BIN, 'storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait'],
        {
          env,
        },
      );
      await term.waitFor('projects 0/3 finished');
      term.write('\x03');
      const end = await term.exit();
      expect(end.exitCode).toBe(130);
      expect(end.output).toContain('Resume with: svc storage-move wait --from default --to storage2 --kind projects');
      expect(end.mode).toMatchObject({ echo: true, canonical: true, signals: true });
    } finally {
      await sandbox.close();
    }
  });
});
