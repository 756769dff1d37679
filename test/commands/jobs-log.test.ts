import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, text } from '../drills/scripted-server.js';
import { BIN, isolatedEnv, spawnSvc } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { followLog } from '../../src/workflows/pipelines/follow-log.js';
import { lastLines, LogFilter } from '../../src/workflows/pipelines/log-filter.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 6 });
const ESC = '\u001b';
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

/** The plain log of a successful sandbox job: markup gone, a section end leaves its line empty. */
function plainLog(name: string, steps: number): string {
  const lines = [
    'Running with svc-sandbox-runner 17.5.0',
    'Preparing the "shell" executor',
    'Using Shell executor...',
    '',
    'Executing "step_script" stage of the job script',
    `$ npm run ${name}`,
    ...Array.from({ length: steps }, (_, i) => `${name}: step ${i + 1} of ${steps} done`),
    '',
    'Job succeeded',
  ];
  return `${lines.join('\n')}\n`;
}

async function rawTrace(project: number, job: number): Promise<Buffer> {
  const res = await fetch(`${suite.sandbox.url}/api/v4/projects/${project}/jobs/${job}/trace`, {
    headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin },
  });
  return Buffer.from(await res.arrayBuffer());
}

async function pipelineJobs(project: string, ref: string): Promise<Array<{ id: number; name: string }>> {
  const created = await suite.run(['pipeline', 'create', project, '--ref', ref, '-o', 'json']);
  const id = (JSON.parse(created.stdout) as { id: number }).id;
  const jobs = await suite.run(['jobs', 'list', project, '--pipeline', String(id), '-o', 'json', '--fields', 'id,name']);
  return JSON.parse(jobs.stdout) as Array<{ id: number; name: string }>;
}

describe('jobs log', () => {
  it('strips the runner markup when stdout is not a terminal; --raw gives the bytes as served', async () => {
    const raw = await rawTrace(1, 1);
    const steps = raw.toString().match(/build: step \d+ of (\d+) done/)![1]!;
    const plain = await suite.run(['jobs', 'log', '1', '1']);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe(plainLog('build', Number(steps)));
    expect(plain.stderr).toBe('');
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /api/v4/projects/1/jobs/1/trace']);
    const kept = await suite.run(['jobs', 'log', '1', '1', '--raw']);
    expect(Buffer.from(kept.stdout)).toEqual(raw);
  });

  it('--tail prints the last N lines', async () => {
    const raw = await rawTrace(1, 1);
    const steps = raw.toString().match(/build: step \d+ of (\d+) done/)![1]!;
    const tail = await suite.run(['jobs', 'log', '1', '1', '--tail', '3']);
    expect(tail.stdout).toBe(`build: step ${steps} of ${steps} done\n\nJob succeeded\n`);
    const none = await suite.run(['jobs', 'log', '1', '1', '--tail', '0']);
    expect(none.stdout).toBe('');
  });

  it('--follow prints each part once and exits 0 when the job succeeds', async () => {
    const [build] = await pipelineJobs('2', 'main');
    const followed = await suite.run(['jobs', 'log', '2', String(build!.id), '--follow', '--interval', '0.02']);
    expect(followed.exitCode).toBe(0);
    const whole = await suite.run(['jobs', 'log', '2', String(build!.id)]);
    expect(followed.stdout).toBe(whole.stdout);
    expect(followed.stdout.endsWith('Job succeeded\n')).toBe(true);
    expect(followed.stderr).toBe(`job ${build!.id} succeeded\n`);
  });

  it('--follow exits 8 when the job fails, with the reason from the log on stdout', async () => {
    const [, test] = await pipelineJobs('2', 'fail/broken-build');
    const followed = await suite.run(['jobs', 'log', '2', String(test!.id), '--follow', '--interval', '0.02']);
    expect(followed.exitCode).toBe(8);
    expect(followed.stdout).toContain(
      `FAIL  test/test/job-${test!.id}.test.ts > checks the build output\nAssertionError: expected 3 to be 4\n`,
    );
    expect(followed.stdout.endsWith('\nERROR: Job failed: exit code 1\n')).toBe(true);
    expect(followed.stderr).toBe(`svc: job ${test!.id} ended failed\n`);
    const reads = suite.requests().map((r) => r.rawPath);
    expect(reads.length % 2).toBe(0);
    expect(reads).toEqual(reads.map((_, i) => `/api/v4/projects/2/jobs/${test!.id}${i % 2 ? '/trace' : ''}`));
  });

  it('--follow on a manual job that nobody started says it waits to be played (exit 8), after one read', async () => {
    const jobs = await pipelineJobs('2', 'v1.0.0');
    const deploy = jobs.find((job) => job.name === 'deploy')!;
    const followed = await suite.run(['jobs', 'log', '2', String(deploy.id), '--follow', '--interval', '0.02']);
    expect(followed.exitCode).toBe(8);
    expect(followed.stdout).toBe('');
    expect(followed.stderr).toBe(`svc: job ${deploy.id} is manual: it runs once started (svc jobs play 2 ${deploy.id})\n`);
    expect(suite.requests().map((r) => r.rawPath)).toEqual([
      `/api/v4/projects/2/jobs/${deploy.id}`,
      `/api/v4/projects/2/jobs/${deploy.id}/trace`,
    ]);
  });

  it('refuses --interval without --follow, and says when the job does not exist (exit 5)', async () => {
    const interval = await suite.run(['jobs', 'log', '1', '1', '--interval', '1']);
    expect(interval.exitCode).toBe(2);
    expect(interval.stderr).toBe('svc: --interval applies only with --follow\n');
    const missing = await suite.run(['jobs', 'log', '1', '999999']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('svc: GET /projects/1/jobs/999999/trace failed: 404 Not found\n');
  });

  it('refuses -o, and --fields without --follow --events, before any request (exit 2): the log has no other form', async () => {
    expect(await suite.run(['jobs', 'log', '1', '1', '--tail', '1', '-o', 'json'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "svc: jobs log prints the log's text (with --follow --events, JSON lines); -o json has no form for it\n",
    });
    expect(await suite.run(['jobs', 'log', '1', '1', '--fields', 'id'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'svc: --fields applies to jobs log only with --follow --events (to the result line)\n',
    });
    expect(suite.requests()).toEqual([]);
  });

  it('--follow exits 130 on Ctrl-C, saying the job keeps running', async () => {
    const url = server.add('endless', (req, res) => {
      if (req.url?.endsWith('/trace')) res.writeHead(200, { 'content-type': 'text/plain' }).end('step 1\n');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 5, status: 'running' }));
    });
    const child = spawnSvc(['jobs', 'log', '1', '5', '--follow', '--interval', '0.05'], {
      env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' },
    });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stdout)).toBe('step 1\n');
    expect(String(result.stderr)).toBe('svc: interrupted; job 5 keeps running on the server\n');
  });

  it('keeps colours and section markers on a terminal, and escapes any other control sequence', async () => {
    const hostile = `ok ${ESC}[32;1mgreen${ESC}[0;m\nsection_start:1:build\r${ESC}[0Kbuild\n${ESC}]52;c;cGFzdGU=\u0007${ESC}[2Jend\n`;
    const url = server.add('hostile', text(200, 'text/plain', hostile));
    const env = { ...isolatedEnv({ env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } }), TERM: 'xterm-256color' };
    const end = await spawnPty(['node', BIN, 'jobs', 'log', '1', '5'], { env }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe(
      `ok ${ESC}[32;1mgreen${ESC}[0;m\r\nsection_start:1:build\r${ESC}[0Kbuild\r\n\\e]52;c;cGFzdGU=\\x07\\e[2Jend\r\n`,
    );
    const overwriting = server.add(
      'overwriting',
      text(200, 'text/plain', `token: s3cr3t\rtoken: ******\nsection_end:2:build\r${ESC}[0Kdone\r\n`),
    );
    const shown = await spawnPty(['node', BIN, 'jobs', 'log', '1', '5'], {
      env: { ...isolatedEnv({ env: { SVC_URL: overwriting, SVC_TOKEN: 'plain-token-0123456789' } }), TERM: 'xterm-256color' },
    }).exit();
    // A carriage return of its own would hide what came before it on the line; a marker's, or one ending a line, hides nothing.
    expect(shown.output).toBe(`token: s3cr3t\\rtoken: ******\r\nsection_end:2:build\r${ESC}[0Kdone\r\r\n`);
    const sandboxed = await spawnPty(['node', BIN, 'jobs', 'log', '1', '1', '--tail', '1'], {
      env: { ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color' },
    }).exit();
    expect(sandboxed.output).toBe(`${ESC}[32;1mJob succeeded${ESC}[0;m\r\n`);
  });
});

describe('jobs log terminal safety', () => {
  // What a hostile log can hold: OSC 8 links (ended by ST), an OSC 52 clipboard write and an OSC 0
  // title (ended by BEL), DCS and APC strings, a lone BEL, a backspace, a terminal reset, the C1
  // CSI as UTF-8 and as a lone byte, and an OSC that never ends.
  const HOSTILE = Buffer.concat([
    Buffer.from(`${ESC}]8;;http://evil.test/${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}]52;c;cGFzdGU=\u0007clip${ESC}]0;title\u0007 bel\u0007\n`),
    Buffer.from(`${ESC}Pq#0;2;0;0;0${ESC}\\dcs ${ESC}_apc${ESC}\\ back\bspace ${ESC}creset \u009b2J c1 `),
    Buffer.from([0x9b, 0x32, 0x4a, 0x0a]),
    Buffer.from(`keep é ✓ \ttab\r\n${ESC}[1;31mred${ESC}[0m ${ESC}]2;open title\nlast\n`),
  ]);

  it('into a pipe removes every escape sequence and control character but tab, newline and carriage return', async () => {
    const url = server.add('hostile-pipe', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(HOSTILE));
    const r = await spawnSvc(['jobs', 'log', '1', '5'], { env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('link clip bel\ndcs  backspace reset 2J c1 2J\nkeep é ✓ \ttab\r\nred \nlast\n');
    expect(String(r.stderr)).toBe('');
  });

  it('on a terminal keeps a line erase only where it hides nothing the log printed', async () => {
    const log = `secret\r${ESC}[Kshown\nsection_start:1:x${ESC}]0;t\u0007\r${ESC}[0K${ESC}[0Kheader\n`;
    const url = server.add('erase', text(200, 'text/plain', log));
    const env = { ...isolatedEnv({ env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } }), TERM: 'xterm-256color' };
    const end = await spawnPty(['node', BIN, 'jobs', 'log', '1', '5'], { env }).exit();
    expect(end.exitCode).toBe(0);
    expect(end.output).toBe(`secret\\r${ESC}[Kshown\r\nsection_start:1:x\\e]0;t\\x07\r${ESC}[0K${ESC}[0Kheader\r\n`);
  });
});

describe('log filtering', () => {
  it('holds a partial line until its end, so markup split between reads is still recognised', () => {
    const filter = new LogFilter('plain');
    expect(filter.push(Buffer.from(`a${ESC}[3`)).toString()).toBe('');
    expect(filter.push(Buffer.from(`2mb\nsection_end:9:x\r${ESC}`)).toString()).toBe('ab\n');
    expect(filter.push(Buffer.from('[0Kc')).toString()).toBe('');
    expect(filter.end().toString()).toBe('c');
  });

  it('gives a 32 MiB line split over 64 KiB reads back byte for byte, characters cut between reads included', () => {
    const line = Buffer.from(`${'é✓x'.repeat(5_592_405)}\n`);
    for (const mode of ['plain', 'terminal'] as const) {
      const filter = new LogFilter(mode);
      const out: Buffer[] = [];
      for (let at = 0; at < line.length; at += 65_536) out.push(filter.push(line.subarray(at, at + 65_536)));
      out.push(filter.end());
      expect(out.slice(0, -2).every((piece) => piece.length === 0)).toBe(true);
      expect(Buffer.concat(out).equals(line)).toBe(true);
    }
  });

  it('keeps bytes that are not markup exactly, invalid UTF-8 included', () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x0a, 0xc3, 0xa9, 0x0a]);
    expect(new LogFilter('plain').push(bytes)).toEqual(bytes);
  });

  it('takes the last lines with or without a final newline', () => {
    expect(lastLines(Buffer.from('a\nb\nc\n'), 2).toString()).toBe('b\nc\n');
    expect(lastLines(Buffer.from('a\nb\nc'), 1).toString()).toBe('c');
    expect(lastLines(Buffer.from('a\nb\n'), 5).toString()).toBe('a\nb\n');
    expect(lastLines(Buffer.from('\n'), 1).toString()).toBe('\n');
  });
});

describe('following a log', () => {
  /** A job whose reads return these logs and statuses in turn, on a clock that only records the waits. */
  async function follow(reads: Array<[string, string]>, shown?: string) {
    const sleeps: number[] = [];
    const written: string[] = [];
    const warnings: string[] = [];
    let read = 0;
    const { status } = await followLog(
      { status: async () => reads[read]![1], log: async () => Buffer.from(reads[read++]![0]) },
      {
        clock: { now: () => 0, sleep: async (ms) => void sleeps.push(ms) },
        signal: new AbortController().signal,
        intervalMs: 1000,
        shown: shown === undefined ? undefined : Buffer.from(shown),
        write: async (bytes) => void written.push(bytes.toString()),
        restart: async () => void written.push('<restart>'),
        warn: (line) => warnings.push(line),
      },
    );
    return { status, sleeps, written, warnings, reads: read };
  }

  it('prints only what each read adds, doubles the wait while nothing comes, and stops at the final status', async () => {
    const result = await follow([
      ['', 'pending'],
      ['', 'running'],
      ['a\n', 'running'],
      ['a\n', 'running'],
      ['a\nb\n', 'failed'],
    ]);
    expect(result).toEqual({ status: 'failed', sleeps: [2000, 4000, 1000, 2000], written: ['a\n', 'b\n'], warnings: [], reads: 5 });
  });

  it('caps the wait at 30 s and starts after what --tail already printed', async () => {
    const idle: Array<[string, string]> = Array.from({ length: 7 }, () => ['abc', 'running']);
    const result = await follow([...idle, ['abcd', 'success']], 'abc');
    expect(result.sleeps).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(result.written).toEqual(['d']);
  });

  it('warns once when the log on the server got shorter, and prints it again from its start', async () => {
    const result = await follow([
      ['abcdef', 'running'],
      ['ab', 'running'],
      ['abc', 'running'],
      ['abcd', 'success'],
    ]);
    expect(result.written).toEqual(['abcdef', '<restart>', 'ab', 'c', 'd']);
    expect(result.warnings).toEqual([
      'the log on the server is now shorter than what was printed (2 of 6 bytes); printing it again from its start',
    ]);
  });

  it('warns once when what was printed was rewritten in place, and prints the log again from its start', async () => {
    const result = await follow(
      [
        ['abc\nde', 'running'],
        ['abX\ndef', 'running'],
        ['abX\ndefg', 'success'],
      ],
      'abc',
    );
    expect(result.written).toEqual(['\nde', '<restart>', 'abX\ndef', 'g']);
    expect(result.warnings).toEqual([
      'the log on the server was rewritten: its first 6 bytes are no longer what was printed; printing it again from its start',
    ]);
  });
});
